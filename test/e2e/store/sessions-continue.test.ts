/**
 * Issue 21, "the session you want, always", through the binary: `-c` continues the newest session of
 * the folder whatever became of its last run — stopped by SIGTERM, by --timeout, by an unreachable
 * API, or cut short by the API — with an older session beside it to catch a silent fallback; a log
 * with a garbage line in its middle is continued from the part before it, in a new session naming
 * its origin, the damaged file left byte for byte; `shiro sessions` shows each state.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { echoModel } from "../../support/scripts.ts";
import { itemSummary, loadAll, sessionFiles, sessionsDir } from "../../support/session-runs.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";

/** Each test its own server: the faults it injects are served to its requests alone. */
async function withServer(run: (server: StrictServer) => Promise<void>): Promise<void> {
  const server = await startStrictServer({ models: { "echo-model": echoModel } });
  try {
    await run(server);
  } finally {
    await server.stop();
  }
}

const dirs = () => ({ home: tempDir("cont-home"), cwd: tempDir("cont-proj") });
const envOf = (server: StrictServer, home: string) => ({ PATH: process.env.PATH!, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url, NO_COLOR: "1" });
const jsonLines = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l));
const resultOf = (stdout: string) => jsonLines(stdout).find((l) => l.type === "result");
const listed = async (server: StrictServer, p: { home: string; cwd: string }) =>
  JSON.parse((await runShiro(["sessions", "--json"], { ...p, env: { OPENAI_BASE_URL: server.url } })).stdout) as { id: string; state: string; title: string }[];

/** A finished echo chat: the older, unrelated session a silent fallback would continue. */
async function older(server: StrictServer, p: { home: string; cwd: string }): Promise<string> {
  const r = await runShiro(["-p", "--json", "-m", "echo-model", "an older, unrelated chat"], { ...p, env: { OPENAI_BASE_URL: server.url } });
  expect(r.code).toBe(0);
  return resultOf(r.stdout).sessionId;
}

/** A run whose model call hangs, stopped from outside once the request is in: the exit code and stderr. */
async function stopped(server: StrictServer, p: { home: string; cwd: string }, args: string[], stop?: (proc: Bun.Subprocess) => void) {
  server.inject({ hang: true });
  const before = server.requests.length;
  const proc = Bun.spawn([BINARY, ...args], { cwd: p.cwd, env: envOf(server, p.home), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  while (server.requests.length === before) await Bun.sleep(10);
  stop?.(proc);
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  return { code, stderr };
}

/** `-c -p "go on"`: continues the newest session here; the session it went on and the first request it sent. */
async function goOn(server: StrictServer, p: { home: string; cwd: string }, env: Record<string, string> = {}) {
  const before = server.requests.length;
  const r = await runShiro(["-c", "-p", "--json", "go on"], { ...p, env: { OPENAI_BASE_URL: server.url, ...env } });
  expect(r.code).toBe(0);
  return { sessionId: resultOf(r.stdout).sessionId as string, request: server.requests[before]!, notices: jsonLines(r.stdout).filter((l) => l.type === "notice").map((l) => l.text as string) };
}

describe("-c continues the newest session here, whatever became of its last run", () => {
  test.concurrent("stopped by SIGTERM before its first answer", () =>
    withServer(async (server) => {
      const p = dirs();
      const old = await older(server, p);
      const run = await stopped(server, p, ["-p", "-m", "echo-model", "the prompt a SIGTERM cut short"], (proc) => proc.kill("SIGTERM"));
      expect(run.code).toBe(143);
      expect(run.stderr).toContain("stopped by SIGTERM; the session is saved (continue it with shiro -c)");
      const [newest, next] = await listed(server, p);
      expect([newest?.title, newest?.state, next?.id, next?.state]).toEqual(["the prompt a SIGTERM cut short", "interrupted", old, "answered"]);
      const cont = await goOn(server, p);
      expect(cont.sessionId).toBe(newest!.id);
      expect(itemSummary(cont.request.body.input)).toEqual(["user: the prompt a SIGTERM cut short", "user: go on"]);
    }),
  );

  test.concurrent("stopped by --timeout before its first answer", () =>
    withServer(async (server) => {
      const p = dirs();
      const old = await older(server, p);
      const run = await stopped(server, p, ["-p", "--timeout", "1", "-m", "echo-model", "the prompt the timeout cut short"]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("stopped at --timeout; the job is not finished and the session is saved (continue it with shiro -c, or raise --timeout)");
      const [newest, next] = await listed(server, p);
      expect([newest?.state, next?.id]).toEqual(["interrupted", old]);
      const cont = await goOn(server, p);
      expect(cont.sessionId).toBe(newest!.id);
      expect(itemSummary(cont.request.body.input)).toEqual(["user: the prompt the timeout cut short", "user: go on"]);
    }),
  );

  test.concurrent(
    "stopped by an unreachable API (every retry refused)",
    () =>
      withServer(async (server) => {
        const p = dirs();
        const old = await older(server, p);
        // Nothing listens on port 9: each of the six attempts is refused, after the backoff between them.
        const run = await runShiro(["-p", "-m", "echo-model", "the prompt no API answered"], { ...p, env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }, timeoutMs: 60_000 });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain("could not reach http://127.0.0.1:9/v1");
        const [newest, next] = await listed(server, p);
        expect([newest?.state, next?.id]).toEqual(["no-answer", old]);
        const cont = await goOn(server, p);
        expect(cont.sessionId).toBe(newest!.id);
        expect(itemSummary(cont.request.body.input)).toEqual(["user: the prompt no API answered", "user: go on"]);
      }),
    90_000,
  );

  test.concurrent("an answer the API cut short: `-c \"go on\"` sends its partial text back", () =>
    withServer(async (server) => {
      const p = dirs();
      const old = await older(server, p);
      const prompt = "write the whole changelog for the release please";
      // The opening events, the text item's two, then three of its words: the answer stops mid-sentence.
      server.inject({ incomplete: "max_output_tokens", afterEventCount: 5 });
      const run = await runShiro(["-p", "-m", "echo-model", prompt], { ...p, env: { OPENAI_BASE_URL: server.url } });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("the response stopped before it was complete (max_output_tokens");
      const [newest, next] = await listed(server, p);
      expect([newest?.state, next?.id]).toEqual(["incomplete", old]);
      const cut = (await loadAll(p.home)).find((s) => s.id === newest!.id)!.messages[1]!;
      const partial = cut.role === "assistant" ? cut.parts.map((part) => (part.type === "text" ? part.text : "")).join("") : "";
      expect(partial.length).toBeGreaterThan(0);
      expect(`You said: ${prompt}`.startsWith(partial) && partial !== `You said: ${prompt}`).toBe(true);

      const cont = await goOn(server, p);
      expect(cont.sessionId).toBe(newest!.id);
      const input = JSON.stringify([
        { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: partial }] },
        { type: "message", role: "user", content: [{ type: "input_text", text: "go on" }] },
      ]);
      expect(cont.request.raw).toContain(`"input":${input}`);
    }),
  );
});

describe("a damaged log is never a dead end", () => {
  test.concurrent("a garbage line in the middle: listed as damaged; -c and -r continue the part before it in a new session naming its origin; the file is left byte for byte", () =>
    withServer(async (server) => {
      const p = dirs();
      await older(server, p);
      const first = await runShiro(["-p", "--json", "-m", "echo-model", "the first turn"], { ...p, env: { OPENAI_BASE_URL: server.url } });
      const id = resultOf(first.stdout).sessionId as string;
      expect((await runShiro(["-c", "-p", "the second turn"], { ...p, env: { OPENAI_BASE_URL: server.url } })).code).toBe(0);
      // session, user, prompt, call, response | garbage | user, call, response
      const path = join(sessionsDir(p.home), `${id}.jsonl`);
      const lines = readFileSync(path, "utf8").split("\n");
      expect(lines.slice(0, 5).map((l) => JSON.parse(l).type)).toEqual(["session", "user", "prompt", "call", "response"]);
      writeFileSync(path, [...lines.slice(0, 5), "\u0000\u0000 disk garbage \u0000", ...lines.slice(5)].join("\n"));
      const damaged = readFileSync(path);

      const [newest] = await listed(server, p);
      expect([newest?.id, newest?.state]).toEqual([id, "damaged"]);
      const table = (await runShiro(["sessions"], { ...p, env: { OPENAI_BASE_URL: server.url } })).stdout.split("\n");
      expect(table.find((row) => row.includes("the first turn"))).toMatch(/ the first turn +damaged +2 msgs /);

      const cont = await goOn(server, p);
      expect(cont.sessionId).not.toBe(id);
      expect(cont.notices).toContain(`session ${id} is damaged at line 6 of its log (not JSON); continuing from the 5 lines before it as a new session, ${cont.sessionId} (the damaged log is left as it is)`);
      expect(itemSummary(cont.request.body.input)).toEqual(["user: the first turn", "assistant: You said: the first turn", "user: go on"]);
      const copy = readFileSync(join(sessionsDir(p.home), `${cont.sessionId}.jsonl`), "utf8").split("\n");
      expect(JSON.parse(copy[0]!)).toMatchObject({ type: "session", id: cont.sessionId, forkedFrom: { id, events: 5 } });
      expect(readFileSync(path)).toEqual(damaged);

      // The continuation is the newest now, answered; the damaged one is still listed, as damaged.
      expect((await listed(server, p)).slice(0, 2).map((s) => [s.id, s.state])).toEqual([[cont.sessionId, "answered"], [id, "damaged"]]);
      // -r by its id says the same and goes on the same way.
      const before = server.requests.length;
      const byId = await runShiro(["-r", id.slice(0, 20), "-p", "once more"], { ...p, env: { OPENAI_BASE_URL: server.url } });
      expect(byId.code).toBe(0);
      expect(byId.stderr).toContain(`! session ${id} is damaged at line 6 of its log (not JSON); continuing from the 5 lines before it as a new session, `);
      expect(itemSummary(server.requests[before]!.body.input)).toEqual(["user: the first turn", "assistant: You said: the first turn", "user: once more"]);
      expect(readFileSync(path)).toEqual(damaged);
      expect(sessionFiles(p.home)).toHaveLength(4);
    }),
  );
});

test.concurrent("`shiro sessions` lists every session with what became of its last run", () =>
  withServer(async (server) => {
    const p = dirs();
    const env = { OPENAI_BASE_URL: server.url };
    const run = (prompt: string) => runShiro(["-p", "-m", "echo-model", prompt], { ...p, env });
    expect((await run("answered in full")).code).toBe(0);
    server.inject({ status: 400 });
    expect((await run("refused by the API")).code).toBe(1);
    server.inject({ incomplete: "max_output_tokens", afterEventCount: 5 });
    expect((await run("cut short by the API")).code).toBe(1);
    expect((await stopped(server, p, ["-p", "-m", "echo-model", "stopped by a signal"], (proc) => proc.kill("SIGTERM"))).code).toBe(143);
    expect((await run("damaged afterwards")).code).toBe(0);
    const damaged = (await listed(server, p))[0]!.id;
    const path = join(sessionsDir(p.home), `${damaged}.jsonl`);
    const lines = readFileSync(path, "utf8").split("\n");
    writeFileSync(path, [...lines.slice(0, 3), "not a line shiro wrote", ...lines.slice(3)].join("\n"));

    expect((await listed(server, p)).map((s) => [s.title, s.state])).toEqual([
      ["damaged afterwards", "damaged"],
      ["stopped by a signal", "interrupted"],
      ["cut short by the API", "incomplete"],
      ["refused by the API", "no-answer"],
      ["answered in full", "answered"],
    ]);
    const table = await runShiro(["sessions"], { ...p, env });
    expect([table.code, table.stderr]).toEqual([0, ""]);
    const rows = table.stdout.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^id\s+age\s+title\s+state\s+messages\s+tokens\s+cost$/);
    expect(rows.slice(1).map((row) => row.split(/\s{2,}/).slice(2, 4))).toEqual([
      ["damaged afterwards", "damaged"],
      ["stopped by a signal", "interrupted"],
      ["cut short by the API", "incomplete"],
      ["refused by the API", "no answer"],
      ["answered in full", "answered"],
    ]);
  }),
);

test("a damaged session index: -c still continues the newest session (the logs say which), one warning names the file, and the index is made again", async () => {
  await withServer(async (server) => {
    const p = dirs();
    await older(server, p);
    const newest = resultOf((await runShiro(["-p", "--json", "-m", "echo-model", "the newest chat"], { ...p, env: { OPENAI_BASE_URL: server.url } })).stdout).sessionId;
    const [indexFile] = new Bun.Glob("*.json").scanSync({ cwd: join(sessionsDir(p.home), "index"), absolute: true });
    writeFileSync(indexFile!, "{ half an index");
    const r = await runShiro(["-p", "--json", "-m", "echo-model", "-c", "and again"], { ...p, env: { OPENAI_BASE_URL: server.url } });
    expect(r.code).toBe(0);
    // (--json carries it as a notice event)
    expect(r.stdout + r.stderr).toContain(`skipping a session index: ${indexFile} is not valid JSON`);
    expect(r.stdout + r.stderr).toContain("listed from the logs instead");
    expect(resultOf(r.stdout).sessionId).toBe(newest);
    // Made again: the next run lists both sessions without a word.
    const again = await runShiro(["sessions", "--json"], { ...p, env: { OPENAI_BASE_URL: server.url } });
    expect(again.stderr).toBe("");
    expect(JSON.parse(again.stdout)).toHaveLength(2);
  });
});
