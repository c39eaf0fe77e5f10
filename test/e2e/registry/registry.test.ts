import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestCertificate, removeCertificate, startHttpsServer, type TestCa, type TestHttps } from "../../support/https-server.ts";
import { filesUnder, pluginText, sha256, skillText } from "../../support/registry-fixture.ts";
import { MIXED, homeWithRegistry, serveIndex, serveMixedIndex, serveShippedRegistry, shippedFile } from "../../support/registry-site.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";

let ca: TestCa;
let https: TestHttps;
let shippedUrl: string;
let hostileUrl: string;
let mixedUrl: string;

beforeAll(() => {
  ca = makeTestCertificate();
  https = startHttpsServer(ca);
  shippedUrl = serveShippedRegistry(https);
  const url = (file: string) => `${https.origin}/${file}`;
  mixedUrl = serveMixedIndex(https);
  https.routes.set("/evil/bounce.md", () => new Response(null, { status: 302, headers: { location: "http://127.0.0.1:9/bounce.md" } }));
  hostileUrl = serveIndex(
    https,
    "/hostile-index.json",
    {
      skills: [{ name: "bounce", description: "Redirects to plain http.", url: url("evil/bounce.md") }],
      plugins: [{ name: "swapped", description: "Its body changed after the index pinned it.", url: url("evil/swapped.json"), sha256: "0".repeat(64) }],
    },
    { "evil/swapped.json": pluginText("swapped") },
  );
});
afterAll(() => {
  https.stop();
  removeCertificate(ca);
});

const shiro = (args: string[], home: string, env: Record<string, string | undefined> = {}) =>
  runShiro(["registry", ...args], { cwd: tempDir("reg-cwd"), home, env: { NODE_EXTRA_CA_CERTS: ca.certPath, ...env } });

const lines = (text: string) => text.trimEnd().split("\n");

/** Each column of a table starts at the same offset on every line (the header's word positions). */
function expectAligned(table: string[], headers: string[]) {
  const starts = headers.map((h) => table[0]!.indexOf(h));
  expect(starts.every((s, i) => s >= 0 && (i === 0 || s > starts[i - 1]!))).toBe(true);
  for (const row of table.slice(1)) {
    for (const start of starts.slice(1)) {
      expect(row[start - 1]).toBe(" "); // a gap before every column…
      expect(row[start]).not.toBe(" "); // …and a value starting exactly under its header
    }
  }
}

const registryFiles = (home: string) => filesUnder(join(home, "registry"));

describe("shiro registry through the binary (local HTTPS registry, NODE_EXTRA_CA_CERTS)", () => {
  test("list and search print aligned tables of both kinds; usage errors exit 2", async () => {
    const home = homeWithRegistry(shippedUrl);
    const all = await shiro(["list"], home);
    expect([all.code, all.stderr]).toEqual([0, ""]);
    const table = lines(all.stdout);
    expect(table[0]).toMatch(/^KIND +NAME +STATE +VERSION +DESCRIPTION$/);
    expectAligned(table, ["KIND", "NAME", "STATE", "VERSION", "DESCRIPTION"]);
    const shipped = JSON.parse(shippedFile("registry-index.json"));
    expect(table).toHaveLength(1 + shipped.skills.length + shipped.plugins.length);
    for (const kind of ["skill", "plugin"] as const) {
      for (const entry of shipped[`${kind}s`]) {
        expect(table.some((row) => row.match(new RegExp(`^${kind} +${entry.name} +- +${entry.sha256.slice(0, 12)} +`)) && row.endsWith(entry.description))).toBe(true);
      }
    }

    const found = await shiro(["search", "force", "push"], home);
    expect(found.code).toBe(0);
    expect(lines(found.stdout).slice(1).map((row) => row.split(/ +/).slice(0, 2).join(" "))).toEqual(["plugin no-force-push"]);
    const byAuthor = lines((await shiro(["search", "SHIRO-NEKO"], home)).stdout);
    expect(byAuthor).toHaveLength(table.length); // every shipped entry names the author

    const none = await shiro(["search", "kubernetes"], home);
    expect([none.code, none.stdout]).toEqual([0, 'Nothing in the registry matches "kubernetes".\n']);

    const usage = await shiro(["frobnicate"], home);
    expect(usage.code).toBe(2);
    expect(lines(usage.stderr)).toHaveLength(1);
    expect(usage.stderr).toContain("usage: shiro registry [list | search <query> | add <name> [--yes] | remove <name> | installed]");
  });

  test("the index must be https with a trusted certificate: one line, exit 1", async () => {
    const untrusted = await shiro(["list"], homeWithRegistry(shippedUrl), { NODE_EXTRA_CA_CERTS: undefined });
    expect(untrusted.code).toBe(1);
    expect(lines(untrusted.stderr)).toHaveLength(1);
    expect(untrusted.stderr).toStartWith(`refused index ${shippedUrl}: cannot fetch`);
    expect(untrusted.stdout).toBe("");

    const plain = shippedUrl.replace("https:", "http:");
    const before = https.requested.length;
    const http = await shiro(["list"], homeWithRegistry(plain));
    // A plain-http registryUrl is a configuration error: exit 2, naming the file and the field.
    expect([http.code, http.stdout]).toEqual([2, ""]);
    expect(lines(http.stderr)).toHaveLength(1);
    expect(http.stderr).toMatch(/config\.json .*registryUrl.*must be an https:\/\/ URL/);
    expect(https.requested.length).toBe(before);
  });

  test("add without --yes and no terminal shows the text, writes nothing, exits 1", async () => {
    const home = homeWithRegistry(shippedUrl);
    const r = await shiro(["add", "commit-message"], home);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('skill "commit-message" not installed: nobody to confirm; pass --yes to install it without a prompt\n');
    expect(r.stdout).toStartWith("skill commit-message: Write a clear git commit message");
    expect(registryFiles(home)).toEqual([]);
  });

  test("add --yes, installed, list and remove for a skill and a plugin: files on disk match the registry", async () => {
    const home = homeWithRegistry(shippedUrl);
    const skill = await shiro(["add", "commit-message", "--yes"], home);
    expect(skill.code).toBe(0);
    expect(skill.stdout).toMatch(/^installed skill "commit-message" \(sha256 b2d21f2a801a\) → .*registry\/skills\/commit-message\.md\n$/);
    const plugin = await shiro(["add", "plugin:no-force-push", "--yes"], home);
    expect(plugin.code).toBe(0);
    expect(registryFiles(home)).toEqual([
      "plugins/no-force-push.json",
      "plugins/no-force-push.origin.json",
      "skills/commit-message.md",
      "skills/commit-message.origin.json",
    ]);
    expect(readFileSync(join(home, "registry/skills/commit-message.md"), "utf8")).toBe(shippedFile("registry/skills/commit-message.md"));
    expect(readFileSync(join(home, "registry/plugins/no-force-push.json"), "utf8")).toBe(shippedFile("registry/plugins/no-force-push.json"));
    const origin = JSON.parse(readFileSync(join(home, "registry/plugins/no-force-push.origin.json"), "utf8"));
    expect(origin).toMatchObject({ kind: "plugin", name: "no-force-push", indexUrl: shippedUrl, entryUrl: `${https.origin}/registry/plugins/no-force-push.json` });

    const installed = await shiro(["installed"], home);
    expect(installed.code).toBe(0);
    const table = lines(installed.stdout);
    expect(table[0]).toMatch(/^KIND +NAME +INSTALLED +FROM +DESCRIPTION$/);
    expectAligned(table, ["KIND", "NAME", "INSTALLED", "FROM", "DESCRIPTION"]);
    const today = new Date().toISOString().slice(0, 10);
    expect(table.slice(1).map((row) => row.split(/ +/).slice(0, 4).join(" "))).toEqual([
      `skill commit-message ${today} ${https.origin}/registry/skills/commit-message.md`,
      `plugin no-force-push ${today} ${https.origin}/registry/plugins/no-force-push.json`,
    ]);
    const listed = lines((await shiro(["list"], home)).stdout);
    expect(listed.filter((row) => / installed /.test(row)).map((row) => row.split(/ +/)[1])).toEqual(["commit-message", "no-force-push"]);

    const removed = await shiro(["remove", "commit-message"], home);
    expect([removed.code, removed.stdout]).toEqual([0, 'removed skill "commit-message"\n']);
    expect(registryFiles(home)).toEqual(["plugins/no-force-push.json", "plugins/no-force-push.origin.json"]);
    const again = await shiro(["remove", "commit-message"], home);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('refused "commit-message": no such entry installed\n');
    expect((await shiro(["remove", "no-force-push"], home)).code).toBe(0);
    expect(registryFiles(home)).toEqual([]);
    expect((await shiro(["installed"], home)).stdout).toBe("Nothing installed from a registry. Try: shiro registry list\n");
  });

  test("list describes an installed entry from the installed file (description, version), whatever the index says now", async () => {
    const installed = skillText("notes", "Draft release notes.", "Version one.");
    let served = { description: "Draft release notes.", body: installed };
    https.routes.set("/changing/notes.md", () => new Response(served.body));
    https.routes.set("/changing-index.json", () =>
      Response.json({ skills: [{ name: "notes", description: served.description, url: `${https.origin}/changing/notes.md`, sha256: sha256(served.body) }], plugins: [] }),
    );
    const home = homeWithRegistry(`${https.origin}/changing-index.json`);
    expect((await shiro(["add", "notes", "--yes"], home)).code).toBe(0);
    const row = async () => lines((await shiro(["list"], home)).stdout)[1]!.split(/ {2,}/);
    const version = sha256(installed).slice(0, 12);

    served = { ...served, description: "Release notes, rewritten by whoever edits the index." };
    expect(await row()).toEqual(["skill", "notes", "installed", version, "Draft release notes."]);
    served = { description: "Version two.", body: skillText("notes", "Version two.", "Version two.") };
    expect(await row()).toEqual(["skill", "notes", "installed, index differs", version, "Draft release notes."]);
  });

  test("one good entry among six hostile ones: the good one lists and installs, each hostile one is listed as refused", async () => {
    const home = homeWithRegistry(mixedUrl);
    const listed = await shiro(["list"], home);
    expect([listed.code, listed.stderr]).toEqual([0, ""]);
    const rows = lines(listed.stdout).slice(1).map((row) => row.split(/ {2,}/));
    expect(rows[0]).toEqual(["skill", MIXED.good, "-", expect.stringMatching(/^[0-9a-f]{12}$/), MIXED.goodDescription]);
    expect(rows.slice(1).map((row) => row.slice(0, 4))).toEqual(MIXED.hostile.map(({ kind, shown }) => [kind, shown, "refused", "-"]));
    MIXED.hostile.forEach(({ reason }, i) => expect(rows[i + 1]![4]).toStartWith(reason));

    const good = await shiro(["add", MIXED.good, "--yes"], home);
    expect([good.code, good.stderr]).toEqual([0, ""]);
    for (const { kind, shown, reason } of MIXED.hostile.filter((entry) => !/^["#]/.test(entry.shown))) {
      const refused = await shiro(["add", `${kind}:${shown}`, "--yes"], home);
      expect([refused.code, refused.stdout]).toEqual([1, ""]);
      expect(lines(refused.stderr)).toHaveLength(1);
      expect(refused.stderr).toStartWith(`refused ${kind} "${shown}": ${reason}`);
    }
    expect(registryFiles(home)).toEqual([`skills/${MIXED.good}.md`, `skills/${MIXED.good}.origin.json`]);
    expect(https.requested.filter((path) => path.startsWith("/mixed/"))).toEqual([`/mixed/${MIXED.good}.md`]); // no hostile body was even fetched
  });

  test("hostile bodies are refused with one line and nothing on disk", async () => {
    const home = homeWithRegistry(hostileUrl);
    const bounce = await shiro(["add", "bounce", "--yes"], home);
    expect(bounce.code).toBe(1);
    expect(lines(bounce.stderr)).toHaveLength(1);
    expect(bounce.stderr).toStartWith('refused skill "bounce": redirected to http://127.0.0.1:9/bounce.md');

    const before = https.requested.length;
    const swapped = await shiro(["add", "swapped", "--yes"], home);
    expect(swapped.code).toBe(1);
    expect(lines(swapped.stderr)).toHaveLength(1);
    expect(swapped.stderr).toStartWith('refused plugin "swapped": ');
    expect(swapped.stderr).toContain("sha256");
    expect(https.requested.slice(before)).toContain("/evil/swapped.json"); // fetched, checked, not written
    expect(registryFiles(home)).toEqual([]);
    expect(existsSync(join(home, "registry"))).toBe(false);
  });
});
