/**
 * A project's hooks (`.shiro/settings.json`) run only once the person approved that exact definition:
 * never in print mode before (one line says how), with `--hooks <file>` for one run, after a "y" in
 * the REPL (which shows the commands first) — and not again once the file changes. `--no-hooks`
 * turns every hook off, the person's own too. The hook here adds a line to the prompt (the echo model
 * says it back): a project's UserPromptSubmit hook runs in the sandbox, read-only, so it cannot leave a file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { lastUserText } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
const made: string[] = [];
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(async () => {
  await server.stop();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const SKIPPED = "! project hooks in .shiro/settings.json skipped: not approved (approve them in an interactive shiro here, or run with --hooks .shiro/settings.json)";

/** A project whose settings hold a UserPromptSubmit hook adding `hook ran: <tag>` to the prompt, and an empty home. */
function project(tag = "first") {
  const root = tempDir("hooks-project");
  const home = tempDir("hooks-project-home");
  made.push(root, home);
  mkdirSync(join(root, ".shiro"));
  writeSettings(root, tag);
  return { root, home };
}
const writeSettings = (root: string, tag: string) =>
  writeFileSync(join(root, ".shiro", "settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo 'hook ran: ${tag}'` }] }] } }));
const RAN = "You said: hello\n\nhook ran: first\n";

/** The REPL in a pty; not waited on for its prompt, since the hooks question comes first. */
function repl(root: string, home: string) {
  const pty = spawnPty([BINARY], { cwd: root, env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url }, cols: 120, rows: 40 });
  return Object.assign(pty, { send: (line: string) => pty.type(line + keys.enter, 1) });
}

const print = (root: string, home: string, args: string[] = []) => runShiro(["-p", ...args, "hello"], { cwd: root, home, env: { OPENAI_BASE_URL: server.url } });

describe("a project's hooks", () => {
  test("print mode runs none it was not told to (one line says how), runs them with --hooks, and none with --no-hooks", async () => {
    const { root, home } = project();
    const skipped = await print(root, home);
    expect([skipped.code, skipped.stdout]).toEqual([0, "You said: hello\n"]);
    expect(skipped.stderr).toContain(SKIPPED);

    const off = await print(root, home, ["--no-hooks", "--hooks", ".shiro/settings.json"]);
    expect([off.code, off.stdout, off.stderr]).toEqual([0, "You said: hello\n", ""]);

    const missing = await print(root, home, ["--hooks", "nope.json"]);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, "shiro: --hooks nope.json: no such file"]);

    const named = await print(root, home, ["--hooks", ".shiro/settings.json"]);
    expect([named.code, named.stdout, named.stderr]).toEqual([0, RAN, ""]);
    // Named for one run, not approved: the next run skips them again.
    const again = await print(root, home);
    expect([again.stdout, again.stderr]).toEqual(["You said: hello\n", expect.stringContaining(SKIPPED)]);
  });

  test("the REPL shows the commands and asks as it starts; approved, they run there and in print mode, until the file changes", async () => {
    const { root, home } = project();
    const before = server.requests.length;
    await using pty = repl(root, home);
    await pty.waitFor("Run these hooks? (remembered until they change) [y/N]");
    expect(pty.screen()).toContain(".shiro/settings.json brings hooks; they would run in the sandbox, as commands do (PostToolUse ones may write the project):");
    expect(pty.screen()).toContain("UserPromptSubmit: echo 'hook ran: first'");
    expect(server.requests.length).toBe(before);
    await pty.send("y");
    const mark = pty.mark();
    await pty.send("hello");
    await pty.waitFor("hook ran: first", { since: mark });
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);

    const approved = await print(root, home);
    expect([approved.code, approved.stdout, approved.stderr]).toEqual([0, RAN, ""]);

    // A changed definition is a new one: asked again, and until then skipped.
    writeSettings(root, "other");
    const changed = await print(root, home);
    expect([changed.stdout, changed.stderr]).toEqual(["You said: hello\n", expect.stringContaining(SKIPPED)]);
  });

  test("declined in the REPL, they do not run, and the next session asks again", async () => {
    const { root, home } = project();
    await using pty = repl(root, home);
    await pty.waitFor("[y/N]");
    await pty.send("n");
    await pty.waitFor("project hooks skipped for this session (asked again next time)");
    const mark = pty.mark();
    await pty.send("hello");
    await pty.waitFor("You said: hello", { since: mark });
    expect(lastUserText(server.requests.at(-1)!.body.input)).toBe("hello");
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
    expect((await print(root, home)).stderr).toContain(SKIPPED);
  });
});
