import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { demoModel, sequenceModel } from "../../support/scripts.ts";

// What print mode says on stderr about each call: the lines a person reads in CI logs.
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "gpt-5": demoModel,
      sleeper: sequenceModel([{ name: "bash", arguments: { command: "touch started; sleep 10" } }], "done"),
      "failing-bash": sequenceModel([{ name: "bash", arguments: { command: "echo first line of output; echo second; exit 3" } }], "done"),
      counting: sequenceModel(
        [
          { name: "bash", arguments: { command: "printf 'one\\ntwo\\nthree\\n'" } },
          { name: "bash", arguments: { command: "true" } },
          { name: "glob", arguments: { pattern: "notes/*.txt" } },
        ],
        "done",
      ),
    },
  });
});
afterAll(() => server.stop());

test("a denied write's progress line keeps its end: how to allow the call", async () => {
  const cwd = tempDir("proj");
  mkdirSync(join(cwd, "notes"));
  writeFileSync(join(cwd, "notes/todo.txt"), "write docs\n");
  const r = await runShiro(["-p", "Summarise my notes into notes/summary.md"], { cwd, env: { OPENAI_BASE_URL: server.url } });
  expect(r.code).toBe(4);
  expect(r.stderr).toContain("→ read_file notes/todo.txt\n  ✓ line 1\n"); // which lines, not the first one echoed
  const denial = r.stderr.split("\n").find((l) => l.includes("denied:"));
  expect(denial).toBe(
    "  ✗ denied: write_file notes/summary.md needs approval, and this run cannot ask (print mode). Allow it with a permission rule (--allow, or config.json) or run with --yolo.",
  );
});

test("a failed command is summed up by its exit code and its output's first line (print mode shows no output above it)", async () => {
  const r = await runShiro(["-p", "--yolo", "-m", "failing-bash", "run it"], { cwd: tempDir("proj"), env: { OPENAI_BASE_URL: server.url } });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("  ✗ Exit code: 3 · first line of output (+1 line)\n");
});

test("each result's line counts what it got: three lines of output, none, two files", async () => {
  const cwd = tempDir("proj");
  try {
    mkdirSync(join(cwd, "notes"));
    writeFileSync(join(cwd, "notes/a.txt"), "a\n");
    writeFileSync(join(cwd, "notes/b.txt"), "b\n");
    const r = await runShiro(["-p", "--yolo", "-m", "counting", "count"], { cwd, env: { OPENAI_BASE_URL: server.url } });
    expect(r.code).toBe(0);
    const results = r.stderr.split("\n").filter((l) => l.startsWith("  ✓") || l.startsWith("  ✗"));
    expect(results).toEqual(["  ✓ one (+2 lines)", "  ✓ Exit code: 0", "  ✓ notes/a.txt (+1 file)"]);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("stopped at --max-steps 1: '1 model call', and the advice given (shiro -c) finishes the job", async () => {
  const cwd = tempDir("proj");
  const home = tempDir("home");
  mkdirSync(join(cwd, "notes"));
  writeFileSync(join(cwd, "notes/todo.txt"), "write docs\n");
  writeFileSync(join(cwd, "notes/done.txt"), "fix bug\n");
  const env = { OPENAI_BASE_URL: server.url };
  const stopped = await runShiro(["-p", "--yolo", "--max-steps", "1", "Summarise my notes into notes/summary.md"], { cwd, home, env });
  expect(stopped.code).toBe(3);
  expect(stopped.stderr).toContain("! stopped after 1 model call (--max-steps); the job is not finished and the session is saved (continue it with shiro -c, or raise --max-steps)\n");
  const resumed = await runShiro(["-c", "-p", "--yolo", "go on"], { cwd, home, env });
  expect(resumed.code).toBe(0);
  expect(existsSync(join(cwd, "notes/summary.md"))).toBe(true);
});

test("Ctrl-C (SIGINT) in print mode: exit 130, one line saying the session is saved and how to go on", async () => {
  const cwd = tempDir("proj");
  const home = tempDir("home");
  const proc = Bun.spawn([BINARY, "-p", "--yolo", "-m", "sleeper", "wait"], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", NO_COLOR: "1", OPENAI_BASE_URL: server.url },
  });
  const stderr = new Response(proc.stderr).text();
  while (!existsSync(join(cwd, "started"))) await Bun.sleep(20);
  proc.kill("SIGINT");
  expect(await proc.exited).toBe(130);
  expect(await stderr).toEndWith("\n! interrupted; the session is saved (continue it with shiro -c)\n");
  expect(readdirSync(join(home, "sessions")).filter((f) => f.endsWith(".jsonl"))).toHaveLength(1); // as it says
});
