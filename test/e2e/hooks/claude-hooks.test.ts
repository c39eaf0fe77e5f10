/**
 * Issue 32, a project's Claude Code hooks where Claude Code keeps them (`.claude/settings.json`, and
 * the uncommitted `.claude/settings.local.json`), through the binary against the strict server: skipped
 * in print mode until approved (one line naming the file), shown and approved in the REPL as
 * `.shiro/settings.json`'s are, then run — a formatter written for Claude Code, reading
 * `tool_input.file_path` from its stdin JSON, formats the file shiro's write_file and apply_patch wrote.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { writeFiles } from "../../support/command-project.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { FINAL } from "../../support/scripted-job.ts";
import { echoModel, lastUserText, sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { waitUntil } from "../../support/wait-until.ts";

/** A formatter as people write them for Claude Code: the edited file's path from `tool_input.file_path`, nothing else. */
const FORMAT_JS = `let s = "";
process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const file = JSON.parse(s).tool_input.file_path;
  require("fs").appendFileSync(file, "// formatted\\n");
});
`;
const FORMAT = 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/format.js';
const SETTINGS = {
  permissions: { allow: ["Bash(npm test)"] },
  hooks: {
    PostToolUse: [{ matcher: "Write|Edit|MultiEdit", hooks: [{ type: "command", command: FORMAT }] }],
    SessionEnd: [{ hooks: [{ type: "command", command: "echo bye" }] }],
  },
};
const PATCH = "*** Begin Patch\n*** Add File: b.ts\n+export const b = 2;\n*** Add File: c.ts\n+export const c = 3;\n*** End Patch";

let server: StrictServer;
const made: string[] = [];
beforeAll(async () => {
  const job = sequenceModel([{ name: "write_file", arguments: { path: "a.ts", content: "export const a = 1;\n" } }, { name: "apply_patch", arguments: { patch: PATCH } }], FINAL);
  server = await startStrictServer({ defaultModel: job, models: { "echo-model": echoModel } });
});
afterAll(async () => {
  await server.stop();
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>) {
  const [root, home] = [tempDir("claude-hooks"), tempDir("claude-hooks-home")];
  made.push(root, home);
  writeFiles(root, files);
  return { root, home };
}

const print = (root: string, home: string, args: string[]) => runShiro(["-p", ...args], { cwd: root, home, env: { OPENAI_BASE_URL: server.url } });

/** Starts the REPL, which shows the project's hooks and asks as it starts; answers yes and, once it is kept, quits. */
async function approveInRepl(root: string, home: string, expected: string[], files: string[]) {
  await using pty = spawnPty([BINARY], { cwd: root, env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url }, cols: 160, rows: 40 });
  await pty.waitFor("Run these hooks? (remembered until they change) [y/N]");
  for (const line of expected) expect(pty.screen()).toContain(line);
  await pty.type("y" + keys.enter, 1);
  // Nothing is printed for a yes: the approvals file says when it is kept (a Ctrl-D before would decline).
  const kept = () => (existsSync(join(home, "approvals.json")) ? readFileSync(join(home, "approvals.json"), "utf8") : "");
  await waitUntil(() => files.every((file) => kept().includes(`"subject": "${file}"`)), `approvals of ${files.join(", ")}`);
  pty.write(keys.ctrlD);
  expect(await pty.exited).toBe(0);
}

describe("a project's .claude/settings.json hooks", () => {
  test("skipped in print mode until approved, one line naming the file; approved in the REPL, a formatter reading tool_input.file_path formats what write_file and apply_patch wrote", async () => {
    const { root, home } = project({ ".claude/settings.json": JSON.stringify(SETTINGS), ".claude/hooks/format.js": FORMAT_JS });
    const job = ["--yolo", "do the job"];

    const skipped = await print(root, home, job);
    expect([skipped.code, skipped.stdout]).toEqual([0, FINAL + "\n"]);
    expect(skipped.stderr.split("\n").filter((l) => l.startsWith("! "))).toEqual([
      "! project hooks in .claude/settings.json skipped: not approved (approve them in an interactive shiro here, or run with --hooks .claude/settings.json)",
    ]);
    expect(readFileSync(join(root, "a.ts"), "utf8")).toBe("export const a = 1;\n");

    await approveInRepl(root, home, [
      ".claude/settings.json brings hooks; they would run in the sandbox, as commands do (PostToolUse ones may write the project):",
      `PostToolUse Write|Edit|MultiEdit: ${FORMAT}`,
      "not run here: SessionEnd hooks (shiro has no such moment)",
    ], [".claude/settings.json"]);

    // The same job again on a clean slate, so every file is written by this run.
    for (const file of ["a.ts", "b.ts", "c.ts"]) rmSync(join(root, file));
    const approved = await print(root, home, job);
    expect([approved.code, approved.stdout]).toEqual([0, FINAL + "\n"]);
    expect(approved.stderr).toContain("✓ Applied patch");
    expect(approved.stderr.split("\n").filter((l) => l.startsWith("! "))).toEqual(["! .claude/settings.json: not run here: SessionEnd hooks (shiro has no such moment)"]);
    expect(readFileSync(join(root, "a.ts"), "utf8")).toBe("export const a = 1;\n// formatted\n");
    // A patch may touch several files: `file_path` is the first (every one is in `file_paths`).
    expect(readFileSync(join(root, "b.ts"), "utf8")).toBe("export const b = 2;\n// formatted\n");
    expect(readFileSync(join(root, "c.ts"), "utf8")).toBe("export const c = 3;\n");
  });

  test("with .shiro/settings.json and the uncommitted .claude/settings.local.json, both sets are shown, approved together, and both run, shiro's first", async () => {
    const prompt = (tag: string) => JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo 'hook ran: ${tag}'` }] }] } });
    const { root, home } = project({ ".shiro/settings.json": prompt("shiro"), ".claude/settings.local.json": prompt("claude local") });
    const hello = ["-m", "echo-model", "hello"];

    const skipped = await print(root, home, hello);
    expect([skipped.code, skipped.stdout]).toEqual([0, "You said: hello\n"]);
    expect(skipped.stderr).toBe(
      "! project hooks in .shiro/settings.json, .claude/settings.local.json skipped: not approved (approve them in an interactive shiro here, or run with --hooks .shiro/settings.json --hooks .claude/settings.local.json)\n",
    );

    await approveInRepl(root, home, [
      ".shiro/settings.json and .claude/settings.local.json bring hooks; they would run in the sandbox, as commands do (PostToolUse ones may write the project):",
      "  .shiro/settings.json:\n    UserPromptSubmit: echo 'hook ran: shiro'",
      "  .claude/settings.local.json:\n    UserPromptSubmit: echo 'hook ran: claude local'",
    ], [".shiro/settings.json", ".claude/settings.local.json"]);

    const approved = await print(root, home, hello);
    expect([approved.code, approved.stderr]).toEqual([0, ""]);
    expect(lastUserText(server.requests.at(-1)!.body.input)).toBe("hello\n\nhook ran: shiro\nhook ran: claude local");
  });
});
