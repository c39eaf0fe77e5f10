import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestCertificate, removeCertificate, startHttpsServer, type TestCa, type TestHttps } from "../../support/https-server.ts";
import { filesUnder, json, pluginText, removeDir, runRegistry, sha256, skillText, tempHome, text } from "../../support/registry-fixture.ts";

let ca: TestCa;
let server: TestHttps;
let home: string;

const commitSkill = skillText("commit-message", "Write a commit message.", "Read the staged diff first.");
const forcePlugin = pluginText("no-force-push", [{ tools: ["bash"], commandPattern: "git push.*--force", reason: "no force pushes" }]);
const sharedSkill = skillText("shared", "A skill called shared.");
const sharedPlugin = pluginText("shared");

beforeAll(() => {
  ca = makeTestCertificate();
  server = startHttpsServer(ca);
  const at = (path: string) => `${server.origin}${path}`;
  server.routes.set("/index.json", () =>
    json({
      skills: [
        { name: "commit-message", description: "Write a commit message.", url: at("/s/commit-message.md"), sha256: sha256(commitSkill), author: "ana" },
        { name: "shared", description: "A skill called shared.", url: at("/s/shared.md") },
      ],
      plugins: [
        { name: "no-force-push", description: "Refuse git push --force.", url: at("/p/no-force-push.json") },
        { name: "shared", description: "A plugin called shared.", url: at("/p/shared.json") },
      ],
    }),
  );
  server.routes.set("/s/commit-message.md", () => text(commitSkill));
  server.routes.set("/s/shared.md", () => text(sharedSkill));
  server.routes.set("/p/no-force-push.json", () => text(forcePlugin));
  server.routes.set("/p/shared.json", () => text(sharedPlugin));
});
afterAll(() => {
  server.stop();
  removeCertificate(ca);
});
beforeEach(() => {
  home = tempHome();
});
afterEach(() => removeDir(home));

const run = (argv: string[], extra: { answer?: boolean } = {}) => runRegistry(argv, { home, server, ca, ...extra });

describe("registry list and search", () => {
  test("list prints an aligned table of both kinds", async () => {
    const ran = await run(["list"]);
    expect(ran).toMatchObject({ code: 0, err: [] });
    const pinned = sha256(commitSkill).slice(0, 12);
    expect(ran.out).toEqual([
      "KIND    NAME            STATE  VERSION       DESCRIPTION",
      `skill   commit-message  -      ${pinned}  Write a commit message.`,
      "skill   shared          -      -             A skill called shared.",
      "plugin  no-force-push   -      -             Refuse git push --force.",
      "plugin  shared          -      -             A plugin called shared.",
    ]);
  });

  test("search matches names and descriptions case-insensitively", async () => {
    const ran = await run(["search", "FORCE"]);
    expect(ran.code).toBe(0);
    expect(ran.out.slice(1).map((line) => line.split(/\s+/)[1])).toEqual(["no-force-push"]);
    expect((await run(["search", "commit"])).out.slice(1).map((line) => line.split(/\s+/).slice(0, 2).join(":"))).toEqual(["skill:commit-message"]);
    expect((await run(["search", "shared"])).out).toHaveLength(3);
    expect((await run(["search", "push", "force"])).out.slice(1).map((line) => line.split(/\s+/)[1])).toEqual(["no-force-push"]);
    expect((await run(["search", "force", "commit"])).out).toEqual(['Nothing in the registry matches "force commit".']);
    expect((await run(["search", "nothing-like-this"])).out).toEqual(['Nothing in the registry matches "nothing-like-this".']);
  });

  test("list marks what is installed", async () => {
    await run(["add", "commit-message", "--yes"]);
    const ran = await run(["list"]);
    expect(ran.out[1]).toBe(`skill   commit-message  installed  ${sha256(commitSkill).slice(0, 12)}  Write a commit message.`);
  });
});

describe("registry add", () => {
  test("add --yes writes a skill byte for byte with its origin", async () => {
    const ran = await run(["add", "commit-message", "--yes"]);
    expect(ran.code).toBe(0);
    expect(ran.out.at(-1)).toStartWith("installed skill \"commit-message\"");
    expect(filesUnder(home)).toEqual(["registry/skills/commit-message.md", "registry/skills/commit-message.origin.json"]);
    expect(readFileSync(join(home, "registry/skills/commit-message.md"), "utf8")).toBe(commitSkill);
    const origin = JSON.parse(readFileSync(join(home, "registry/skills/commit-message.origin.json"), "utf8"));
    expect(origin).toMatchObject({
      kind: "skill",
      indexUrl: `${server.origin}/index.json`,
      entryUrl: `${server.origin}/s/commit-message.md`,
      sha256: sha256(commitSkill),
      author: "ana",
    });
    expect(Date.now() - Date.parse(origin.installedAt)).toBeLessThan(60_000);
  });

  test("add shows the skill body and asks; answering no writes nothing", async () => {
    const ran = await run(["add", "commit-message"], { answer: false });
    expect(ran.out).toContain("Read the staged diff first.");
    expect(ran.asked).toEqual([`Install skill "commit-message" from ${server.origin}/s/commit-message.md?`]);
    expect(ran.code).toBe(1);
    expect(filesUnder(home)).toEqual([]);
  });

  test("add with yes answered installs a plugin after spelling out its rules", async () => {
    const ran = await run(["add", "no-force-push"], { answer: true });
    expect(ran.out).toContain("  deny bash when the command matches /git push.*--force/: no force pushes");
    expect(ran.code).toBe(0);
    expect(readFileSync(join(home, "registry/plugins/no-force-push.json"), "utf8")).toBe(forcePlugin);
  });

  test("without --yes and nobody to ask, add previews and writes nothing", async () => {
    const ran = await run(["add", "commit-message"]);
    expect(ran.code).toBe(1);
    expect(ran.err).toEqual(['skill "commit-message" not installed: nobody to confirm; pass --yes to install it without a prompt']);
    expect(filesUnder(home)).toEqual([]);
  });

  test("a name used by both kinds needs skill: or plugin:", async () => {
    const ambiguous = await run(["add", "shared", "--yes"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toEqual(["shared is both a skill and a plugin; say skill:shared or plugin:shared"]);
    expect((await run(["add", "plugin:shared", "--yes"])).code).toBe(0);
    expect(filesUnder(home)).toEqual(["registry/plugins/shared.json", "registry/plugins/shared.origin.json"]);
  });

  test("an unknown name is refused", async () => {
    const ran = await run(["add", "skill:no-force-push", "--yes"]);
    expect(ran).toMatchObject({ code: 1, err: ['refused "skill:no-force-push": no such entry in the registry'] });
  });
});

describe("registry installed and remove", () => {
  test("installed lists both kinds with where they came from", async () => {
    expect((await run(["installed"])).out).toEqual(["Nothing installed from a registry. Try: shiro registry list"]);
    await run(["add", "skill:shared", "--yes"]);
    await run(["add", "no-force-push", "--yes"]);
    const ran = await run(["installed"]);
    const today = new Date().toISOString().slice(0, 10);
    const from = (path: string) => `${server.origin}${path}`.padEnd(`${server.origin}/p/no-force-push.json`.length);
    expect(ran.out).toEqual([
      `KIND    NAME           INSTALLED   ${"FROM".padEnd(from("").length)}  DESCRIPTION`,
      `skill   shared         ${today}  ${from("/s/shared.md")}  A skill called shared.`,
      `plugin  no-force-push  ${today}  ${from("/p/no-force-push.json")}  The no-force-push plugin.`,
    ]);
  });

  test("remove deletes the body and its origin, per kind", async () => {
    await run(["add", "skill:shared", "--yes"]);
    await run(["add", "plugin:shared", "--yes"]);
    expect((await run(["remove", "shared"])).code).toBe(2);
    const ran = await run(["remove", "skill:shared"]);
    expect(ran).toMatchObject({ code: 0, out: ['removed skill "shared"'] });
    expect(filesUnder(home)).toEqual(["registry/plugins/shared.json", "registry/plugins/shared.origin.json"]);
    expect((await run(["remove", "shared"])).code).toBe(0);
    expect(filesUnder(home)).toEqual([]);
  });

  test("remove re-checks the name and refuses what is not installed", async () => {
    const escape = await run(["remove", "../../etc/passwd"]);
    expect(escape.code).toBe(1);
    expect(escape.err[0]).toContain("name must be lowercase letters, digits and dashes");
    expect((await run(["remove", "commit-message"])).err).toEqual(['refused "commit-message": no such entry installed']);
  });

  test("bad usage exits 2 with the usage line", async () => {
    for (const argv of [["frobnicate"], ["add"], ["remove", "a", "b"], ["add", "tool:x"]]) {
      const ran = await run(argv);
      expect(ran.code).toBe(2);
      expect(ran.err).toHaveLength(1);
    }
  });
});
