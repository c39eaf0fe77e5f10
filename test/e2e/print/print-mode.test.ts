import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { demoModel, echoModel, firstUserText, sequenceModel } from "../../support/scripts.ts";
import { BINARY } from "../../support/binary.ts";
import { waitUntil } from "../../support/wait-until.ts";

let server: StrictServer;

beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "gpt-5": demoModel,
      "echo-model": echoModel,
      "loop-model": sequenceModel(
        Array.from({ length: 10 }, (_, i) => ({ name: "read_file", arguments: { path: `f${i}.txt` } })),
        "never reached",
      ),
    },
  });
});
afterAll(() => server.stop());

function notesProject(): string {
  const dir = tempDir("proj");
  mkdirSync(join(dir, "notes"));
  writeFileSync(join(dir, "notes/todo.txt"), "write docs\nship it\n");
  writeFileSync(join(dir, "notes/done.txt"), "fix bug\n");
  return dir;
}

const env = () => ({ OPENAI_BASE_URL: server.url });
const since = (n: number) => server.requests.slice(n);
const TASK = "Summarise my notes into notes/summary.md";

describe("print mode end to end (compiled binary ↔ strict local API)", () => {
  test("finishes the job in the minimal number of calls; stdout holds only the answer", async () => {
    const cwd = notesProject();
    const before = server.requests.length;
    const r = await runShiro(["-p", "--yolo", TASK], { cwd, env: env() });
    expect(r.code).toBe(0);
    const summary = readFileSync(join(cwd, "notes/summary.md"), "utf8");
    expect(summary).toContain("- write docs");
    expect(summary).toContain("- fix bug");
    const reqs = since(before);
    expect(reqs).toHaveLength(4); // glob, two parallel reads, write, answer
    expect(reqs.every((q) => q.status === 200)).toBe(true);
    expect(r.stdout).toBe("I read notes/todo.txt (2 open) and notes/done.txt (1 done) and wrote notes/summary.md listing both.\n");
    expect(r.stderr).toContain("→ write_file notes/summary.md");
    // Stateless wire: no provider item ids, store:false, encrypted reasoning asked for.
    for (const q of reqs) {
      expect(q.body.store).toBe(false);
      expect(q.body.include).toEqual(["reasoning.encrypted_content"]);
      expect(q.body.input.some((item: { id?: string }) => item.id !== undefined)).toBe(false);
    }
    expect(reqs[3]!.body.input.filter((i: { type: string }) => i.type === "reasoning").length).toBeGreaterThan(0);
  });

  test("--json prints one parseable event per line, ending with the result", async () => {
    const r = await runShiro(["-p", "--json", "--yolo", TASK], { cwd: notesProject(), env: env() });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const types = new Set(lines.map((l) => l.type));
    for (const t of ["text", "tool-call", "tool-result"]) expect(types.has(t)).toBe(true);
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: "result", status: "done", steps: 4 });
    expect(result.text).toStartWith("I read notes/todo.txt");
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.stderr).toBe("");
  });

  test("exit 4: a write that needs approval is denied in print mode; the answer is still printed", async () => {
    const cwd = notesProject();
    const r = await runShiro(["-p", TASK], { cwd, env: env() });
    expect(r.code).toBe(4);
    expect(existsSync(join(cwd, "notes/summary.md"))).toBe(false);
    expect(r.stderr).toContain("denied");
    expect(r.stdout.length).toBeGreaterThan(0);
  });

  test("exit 3: stopped at --max-steps", async () => {
    const r = await runShiro(["-p", "--max-steps", "2", "-m", "loop-model", "go"], { cwd: tempDir("loop"), env: env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("stopped after 2 model calls");
  });

  test("a negative limit is a bad value of its flag, not a forgotten one; a forgotten one is named so", async () => {
    const cwd = tempDir("usage");
    const said = async (...args: string[]) => {
      const r = await runShiro(["-p", ...args, "hi"], { cwd, env: env() });
      return [r.code, r.stderr.trim()];
    };
    expect(await said("--max-steps", "-1")).toEqual([2, 'shiro: --max-steps must be a positive number of model calls, got "-1"']);
    expect(await said("--max-cost", "-1")).toEqual([2, 'shiro: --max-cost must be a positive number of US dollars (such as 0.50), got "-1"']);
    expect(await said("--timeout", "-2.5")).toEqual([2, 'shiro: --timeout must be a positive number of seconds, got "-2.5"']);
    expect(await said("--max-steps", "--json")).toEqual([2, 'shiro: --max-steps needs a value (one starting with "-" is written --max-steps=-XYZ) (see shiro --help)']);
    rmSync(cwd, { recursive: true, force: true });
  });

  test("exit 2: bad flag, bad value, no API key, bad config field — one line each", async () => {
    const cwd = tempDir("usage");
    const bad = await runShiro(["--frobnicate"], { cwd, env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("--frobnicate");
    const value = await runShiro(["-p", "--max-steps", "lots", "hi"], { cwd, env: env() });
    expect([value.code, value.stderr.trim()]).toEqual([2, 'shiro: --max-steps must be a positive number of model calls, got "lots"']);
    const noKey = await runShiro(["-p", "hi"], { cwd, env: { ...env(), OPENAI_API_KEY: undefined } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toStartWith("shiro: OPENAI_API_KEY is not set");
    const home = tempDir("cfg");
    writeFileSync(join(home, "config.json"), JSON.stringify({ maxSteps: "many" }));
    const cfg = await runShiro(["-p", "hi"], { cwd, home, env: env() });
    expect(cfg.code).toBe(2);
    expect(cfg.stderr).toContain("maxSteps");
    expect(cfg.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("exit 1: the API keeps failing — one readable error line, no stack trace", async () => {
    // retry-after-ms: 0 so the six attempts do not wait out the backoff (unattended-wire tests do).
    const before = server.requests.length;
    server.inject(...Array.from({ length: 6 }, () => ({ status: 500, retryAfterMs: 0 })));
    const r = await runShiro(["-p", "-m", "echo-model", "hello"], { cwd: tempDir("fail"), env: env() });
    expect(r.code).toBe(1);
    expect(since(before).map((q) => q.status)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(r.stderr.split("\n").filter((l) => l.startsWith("error:"))).toEqual(["error: 500 The server had an error while processing your request. Sorry about that! (after 6 attempts)"]);
    expect(r.stderr).not.toContain("    at ");
  });

  test("a 429 with retry-after and a cut stream are survived", async () => {
    const before = server.requests.length;
    server.inject({ status: 429, retryAfter: 0 });
    const limited = await runShiro(["-p", "-m", "echo-model", "hello there"], { cwd: tempDir("429"), env: env() });
    expect([limited.code, limited.stdout]).toEqual([0, "You said: hello there\n"]);
    expect(since(before).map((q) => q.status)).toEqual([429, 200]);

    server.inject({ cut: 4 });
    const cut = await runShiro(["-p", "-m", "echo-model", "again"], { cwd: tempDir("cut"), env: env() });
    expect([cut.code, cut.stdout]).toEqual([0, "You said: again\n"]);
    expect(cut.stderr).toContain("retrying");
  });

  // How long stdin is waited for, and what is done with a large one: print-stdin.test.ts.
  test("stdin: piped prompt, and piped context after an argument", async () => {
    const cwd = tempDir("stdin");
    const piped = await runShiro(["-p", "-m", "echo-model"], { cwd, stdin: "from a pipe\n", env: env() });
    expect(piped.stdout).toBe("You said: from a pipe\n");

    const before = server.requests.length;
    const ctx = await runShiro(["-p", "-m", "echo-model", "explain"], { cwd, stdin: "Error: boom\n", env: env() });
    expect(ctx.code).toBe(0);
    expect(firstUserText(since(before)[0]!.body.input)).toBe("explain\n\n<stdin>\nError: boom\n</stdin>");
  });

  test("exit 130 on Ctrl-C (SIGINT) mid-stream", async () => {
    server.inject({ delayMs: 5000, afterEventCount: 3 });
    const before = server.requests.length;
    const proc = Bun.spawn([BINARY, "-p", "-m", "echo-model", "slow"], {
      cwd: tempDir("int"),
      env: { PATH: process.env.PATH!, SHIRO_HOME: tempDir("h"), OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url },
      stdout: "pipe",
      stderr: "pipe",
    });
    await waitUntil(() => server.requests.slice(before).some((r) => r.status === 200), "the answer's stream began");
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
  });

  test("the API key is never written under SHIRO_HOME", async () => {
    const home = tempDir("keyhome");
    const key = `sk-canary-${Bun.randomUUIDv7()}`;
    const r = await runShiro(["-p", "--yolo", TASK], { cwd: notesProject(), home, env: { ...env(), OPENAI_API_KEY: key } });
    expect(r.code).toBe(0);
    const files = [...new Bun.Glob("**/*").scanSync({ cwd: home, dot: true })];
    expect(files.some((f) => f.startsWith("sessions/"))).toBe(true);
    for (const f of files) expect(readFileSync(join(home, f), "utf8")).not.toContain(key);
  });

  test("the binary ignores the project's .env and bunfig.toml", async () => {
    const cwd = tempDir("autoload");
    // Were either loaded, the key would be replaced and a preload would leave a marker file.
    writeFileSync(join(cwd, ".env"), "OPENAI_BASE_URL=http://127.0.0.1:9/v1\nSHIRO_MODEL=from-dotenv\n");
    writeFileSync(join(cwd, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
    writeFileSync(join(cwd, "evil.ts"), `require("fs").writeFileSync(${JSON.stringify(join(cwd, "preloaded"))}, "x")`);
    const before = server.requests.length;
    const r = await runShiro(["-p", "-m", "echo-model", "hi"], { cwd, env: env() });
    expect([r.code, r.stdout]).toEqual([0, "You said: hi\n"]);
    expect(since(before)[0]!.body.model).toBe("echo-model");
    expect(existsSync(join(cwd, "preloaded"))).toBe(false);
  });

  test("--version and --help answer without a key or a server", async () => {
    const v = await runShiro(["--version"], { cwd: tempDir("v"), env: { OPENAI_API_KEY: undefined } });
    expect(v.stdout).toMatch(/^shiro \d+\.\d+\.\d+\n$/);
    const h = await runShiro(["--help"], { cwd: tempDir("v") });
    expect(h.stdout).toContain("Exit codes");
  });
});
