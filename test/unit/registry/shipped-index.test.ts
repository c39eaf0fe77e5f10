import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { parseIndex, type IndexItem, type RegistryEntry } from "../../../src/registry/index-schema.ts";
import { DEFAULT_REGISTRY_URL } from "../../../src/registry/limits.ts";
import type { RegistryKind } from "../../../src/registry/refusal.ts";
import { validateBody } from "../../../src/registry/validate-body.ts";
import { makeTestCertificate, removeCertificate, startHttpsServer, type TestCa, type TestHttps } from "../../support/https-server.ts";
import { filesUnder, json, removeDir, runRegistry, tempHome } from "../../support/registry-fixture.ts";

const repo = join(import.meta.dir, "../../..");
const rawBase = DEFAULT_REGISTRY_URL.slice(0, DEFAULT_REGISTRY_URL.lastIndexOf("/") + 1);
const indexText = await Bun.file(join(repo, "registry-index.json")).text();
const index = parseIndex(indexText, DEFAULT_REGISTRY_URL);
// Every shipped entry must be usable: a refused one would only show up as a "refused" row.
const usable = (kind: RegistryKind, items: IndexItem[]): [RegistryKind, RegistryEntry][] =>
  items.map((item) => {
    if (!item.ok) throw new Error(`shipped ${kind} ${item.name} is refused: ${item.reason}`);
    return [kind, item.entry];
  });
const entries = [...usable("skill", index.skills), ...usable("plugin", index.plugins)];

/** The file in this repository that an entry's raw URL serves. */
const localPath = (entry: RegistryEntry) => join(repo, entry.url.slice(rawBase.length));

test("the default registry URL is this repository's registry-index.json", () => {
  expect(DEFAULT_REGISTRY_URL).toBe("https://raw.githubusercontent.com/shiro-neko/shiro-neko/main/registry-index.json");
});

test("the shipped index has at least four skills and four plugins", () => {
  expect(index.skills.length).toBeGreaterThanOrEqual(4);
  expect(index.plugins.length).toBeGreaterThanOrEqual(4);
});

test.each(entries.map(([kind, entry]) => [`${kind}:${entry.name}`, kind, entry] as const))(
  "%s is served from registry/ and passes the installer's checks",
  async (_label, kind, entry) => {
    expect(entry.url).toStartWith(`${rawBase}registry/${kind}s/${entry.name}.`);
    expect(entry.sha256).toBeDefined(); // the index pins every shipped body
    const body = validateBody(kind, entry, await Bun.file(localPath(entry)).bytes());
    const description = body.kind === "skill" ? body.skill.description : body.manifest.description;
    expect(description).toBe(entry.description);
  },
);

let ca: TestCa;
let server: TestHttps;
beforeAll(() => {
  ca = makeTestCertificate();
  server = startHttpsServer(ca);
});
afterAll(() => {
  server.stop();
  removeCertificate(ca);
});

test("every shipped entry installs through the command when the repo is served over https", async () => {
  const local = indexText.replaceAll(rawBase, `${server.origin}/`);
  server.routes.set("/registry-index.json", () => json(JSON.parse(local)));
  for (const [, entry] of entries) server.routes.set(`/${entry.url.slice(rawBase.length)}`, () => new Response(Bun.file(localPath(entry))));
  const home = tempHome();
  try {
    for (const [kind, entry] of entries) {
      const ran = await runRegistry(["add", `${kind}:${entry.name}`, "--yes"], { home, server, ca, indexPath: "/registry-index.json" });
      expect(ran.err).toEqual([]);
    }
    expect(filesUnder(home)).toHaveLength(entries.length * 2);
  } finally {
    removeDir(home);
  }
});
