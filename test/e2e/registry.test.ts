import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestCertificate, removeCertificate, startHttpsServer, type TestCa, type TestHttps } from "../support/https-server.ts";
import { filesUnder, pluginText } from "../support/registry-fixture.ts";
import { homeWithRegistry, serveIndex, serveShippedRegistry, shippedFile } from "../support/registry-site.ts";
import { runShiro, tempDir } from "../support/run-shiro.ts";

let ca: TestCa;
let https: TestHttps;
let shippedUrl: string;
let hostileUrl: string;
let httpIndexUrl: string;

beforeAll(() => {
  ca = makeTestCertificate();
  https = startHttpsServer(ca);
  shippedUrl = serveShippedRegistry(https);
  const url = (file: string) => `${https.origin}/${file}`;
  // One bad entry refuses a whole index, so the http: entry gets an index of its own.
  httpIndexUrl = serveIndex(https, "/http-index.json", {
    skills: [{ name: "plain-http", description: "Served over plain http.", url: "http://127.0.0.1:9/plain-http.md" }],
    plugins: [],
  });
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
    expect(table[0]).toMatch(/^KIND +NAME +STATE +DESCRIPTION$/);
    expectAligned(table, ["KIND", "NAME", "STATE", "DESCRIPTION"]);
    const shipped = JSON.parse(shippedFile("registry-index.json"));
    expect(table).toHaveLength(1 + shipped.skills.length + shipped.plugins.length);
    for (const kind of ["skill", "plugin"] as const) {
      for (const entry of shipped[`${kind}s`]) {
        expect(table.some((row) => row.match(new RegExp(`^${kind} +${entry.name} +- +`)) && row.endsWith(entry.description))).toBe(true);
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
    expect(usage.stderr).toContain("usage: registry [list | search <query> | add <name> [--yes] | remove <name> | installed]");
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
    expect((await shiro(["installed"], home)).stdout).toBe("Nothing installed from a registry. Try: registry list\n");
  });

  test("hostile entries are refused with one line and nothing on disk", async () => {
    const httpHome = homeWithRegistry(httpIndexUrl);
    const http = await shiro(["add", "plain-http", "--yes"], httpHome);
    expect([http.code, http.stderr]).toEqual([1, 'refused skill "plain-http": http: URLs are not allowed, only https:\n']);
    expect(registryFiles(httpHome)).toEqual([]);

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
