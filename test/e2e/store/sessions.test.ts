import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { echoModel, sequenceModel } from "../../support/scripts.ts";
import { itemSummary, loadAll, requestsOf, sessionFiles, sessionsDir } from "../../support/session-runs.ts";
import { waitUntil } from "../../support/wait-until.ts";
import { inspectedBodies } from "../../support/inspected-bodies.ts";

let server: StrictServer;

const TODOS = [
  { content: "look around", status: "in_progress" },
  { content: "write the report", status: "pending" },
];
/** Four model calls: a task list (so later calls carry the trailer), a command, a large write, the answer. */
const fourSteps = sequenceModel(
  [
    { name: "todo_write", arguments: { todos: TODOS } },
    { name: "bash", arguments: { command: "echo ran >> log.txt; seq 1 200" } },
    { name: "write_file", arguments: { path: "report.md", content: "line of the report\n".repeat(120) } },
  ],
  "job done",
);

/** A big output, then two small steps: the 4th request overflows gpt-5-mini's 7,000-token window here (6,700 before the background-job tools). */
const overflowing = sequenceModel(
  [
    { name: "bash", arguments: { command: "seq 1 3000" } },
    { name: "todo_write", arguments: { todos: TODOS } },
    { name: "bash", arguments: { command: "seq 1 600" } },
  ],
  "job done",
);

beforeAll(async () => {
  // gpt-5 has a list price; echo-model has none (its cost is unknown, not zero).
  server = await startStrictServer({
    models: { "gpt-5": fourSteps, "echo-model": echoModel, "gpt-5-mini": overflowing },
    windows: { "gpt-5-mini": 7_000 },
  });
});
afterAll(() => server.stop());

const env = () => ({ OPENAI_BASE_URL: server.url });
const shiro = (args: string[], opts: { cwd: string; home: string; stdin?: string }) => runShiro(args, { ...opts, env: env() });
const json = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l));
const resultOf = (stdout: string) => json(stdout).find((l) => l.type === "result");
const since = (n: number) => server.requests.slice(n);

/** Runs one echo turn in `cwd` and returns its session id. */
async function echoTurn(text: string, cwd: string, home: string): Promise<string> {
  const r = await shiro(["-p", "--json", "-m", "echo-model", text], { cwd, home });
  expect(r.code).toBe(0);
  return resultOf(r.stdout).sessionId;
}

describe("continue and resume (compiled binary ↔ strict server)", () => {
  test("`echo … | shiro -c -p` continues: the request carries the earlier turn, the model comes back, the same file grows", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    const id = await echoTurn("remember the word kiwi", cwd, home);
    const [file] = sessionFiles(home);
    expect(file).toBe(`${id}.jsonl`);
    const sizeBefore = statSync(join(sessionsDir(home), file!)).size;

    const before = server.requests.length;
    const r = await shiro(["-c", "-p", "--json"], { cwd, home, stdin: "now run the tests" });
    expect(r.code).toBe(0);
    const result = resultOf(r.stdout);
    expect(result.sessionId).toBe(id);
    expect(result.text).toBe("You said: now run the tests");
    const [request] = since(before);
    expect(request!.body.model).toBe("echo-model"); // restored from the session, no -m given
    expect(itemSummary(request!.body.input)).toEqual([
      "user: remember the word kiwi",
      "assistant: You said: remember the word kiwi",
      "user: now run the tests",
    ]);
    expect(sessionFiles(home)).toEqual([file!]);
    expect(statSync(join(sessionsDir(home), file!)).size).toBeGreaterThan(sizeBefore);
    const [session] = await loadAll(home);
    expect(session!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  test("-c takes the newest session of this folder, never another folder's; none here → exit 2", async () => {
    const home = tempDir("home");
    const a = tempDir("a");
    const b = tempDir("b");
    await echoTurn("older in A", a, home);
    const newestA = await echoTurn("newer in A", a, home);
    const inB = await echoTurn("only in B", b, home);

    const before = server.requests.length;
    const fromA = await shiro(["-c", "-p", "--json", "next in A"], { cwd: a, home });
    expect(resultOf(fromA.stdout).sessionId).toBe(newestA);
    expect(itemSummary(since(before)[0]!.body.input)[0]).toBe("user: newer in A");
    // B's session is older than A's now, and still the one -c finds in B.
    const fromB = await shiro(["-c", "-p", "--json", "next in B"], { cwd: b, home });
    expect(resultOf(fromB.stdout).sessionId).toBe(inB);

    const elsewhere = tempDir("c");
    const none = await shiro(["-c", "-p", "anything"], { cwd: elsewhere, home });
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(`shiro: no saved session for ${elsewhere}; start one without -c`);
    expect(sessionFiles(home)).toHaveLength(3);
  });

  test("-r: full id, unique prefix, ambiguous prefix (exit 2, matches listed), no match (exit 2)", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    const first = await echoTurn("the first one", cwd, home);
    const second = await echoTurn("the second one", cwd, home);
    let common = 0;
    while (first[common] === second[common]) common++;
    expect(common).toBeGreaterThan(0); // UUIDv7 ids made moments apart share their time prefix

    const byFull = await shiro(["-r", first, "-p", "--json", "again"], { cwd, home });
    expect(resultOf(byFull.stdout).sessionId).toBe(first);
    const before = server.requests.length;
    const byPrefix = await shiro(["--resume", second.slice(0, common + 1).toUpperCase(), "-p", "--json", "again"], { cwd, home });
    expect(resultOf(byPrefix.stdout).sessionId).toBe(second);
    expect(itemSummary(since(before)[0]!.body.input)[0]).toBe("user: the second one");

    const ambiguous = await shiro(["-r", first.slice(0, common), "-p", "x"], { cwd, home });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(`"${first.slice(0, common)}" matches 2 sessions; give more of the id:`);
    expect(ambiguous.stdout).toBe("");
    // The listed matches show ids long enough to tell apart: each one, typed back, resumes its session.
    const rows = ambiguous.stderr.trimEnd().split("\n").slice(2);
    expect(rows.map((r) => r.split(/\s{2,}/)[2])).toEqual(["the second one", "the first one"]);
    for (const [row, id] of [[rows[0]!, second], [rows[1]!, first]] as const) {
      const shown = row.split(" ")[0]!;
      expect(id.startsWith(shown)).toBe(true);
      const again = await shiro(["-r", shown, "-p", "--json", "picked from the list"], { cwd, home });
      expect(resultOf(again.stdout).sessionId).toBe(id);
    }

    const none = await shiro(["-r", "ffffffff", "-p", "x"], { cwd, home });
    expect([none.code, none.stderr.trim()]).toEqual([2, 'shiro: no session matches "ffffffff" (see shiro sessions)']);
    expect(sessionFiles(home)).toHaveLength(2); // failed resumes never start a session
  });

  test("resume restores the history byte for byte and the task list", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    const first = server.requests.length;
    expect((await shiro(["-p", "--yolo", "do the job"], { cwd, home })).code).toBe(0);
    const lastLive = since(first).at(-1)!.body.input;
    const before = server.requests.length;
    const r = await shiro(["-c", "-p", "--yolo", "anything left?"], { cwd, home });
    expect([r.code, r.stdout]).toEqual([0, "job done\n"]);
    const resumed = since(before)[0]!.body.input;
    // Reasoning (encrypted), calls, outputs and text come back exactly as the live run sent them.
    const history = lastLive.slice(0, -1); // without the task-list trailer
    expect(JSON.stringify(resumed.slice(0, history.length))).toBe(JSON.stringify(history));
    expect(itemSummary(resumed.slice(history.length))).toEqual(["reasoning", "assistant: job done", "user: anything left?", expect.stringContaining("developer: ")]);
    expect(resumed.at(-1).content[0].text).toContain("[~] look around\n[ ] write the report");
  });
});

describe("listing", () => {
  test("`shiro sessions` is an aligned table, `--json` the same data for scripts", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    expect(await shiro(["sessions"], { cwd, home })).toEqual({ code: 0, stdout: "no saved sessions in this folder (shiro sessions --all lists every folder's)\n", stderr: "" });
    const priced = await shiro(["-p", "--yolo", "--json", "a priced job"], { cwd, home });
    const unpriced = await echoTurn("an unpriced chat", cwd, home);

    const table = await shiro(["sessions"], { cwd, home });
    expect(table.code).toBe(0);
    expect(table.stderr).toBe("");
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^id\s+age\s+title\s+state\s+messages\s+tokens\s+cost$/);
    expect(unpriced.startsWith(lines[1]!.split(" ")[0]!)).toBe(true);
    expect(lines[1]).toMatch(new RegExp(`^${unpriced.slice(0, 8)}\\S*\\s+\\d+s ago\\s+an unpriced chat\\s+answered\\s+2 msgs\\s+\\S+ tok\\s+\\?$`));
    expect(lines[2]).toMatch(/ a priced job\s+answered\s+8 msgs\s+\S+ tok\s+\$\d+\.\d+$/);
    // Right-aligned columns end at the same place on every row.
    const ends = (marker: RegExp) => lines.slice(1).map((l) => l.search(marker) + l.match(marker)![0].length);
    expect(new Set(ends(/\d+ msgs/)).size).toBe(1);
    expect(new Set(ends(/\S+ tok/)).size).toBe(1);
    expect(lines[0]!.indexOf("messages") + "messages".length).toBe(ends(/\d+ msgs/)[0]!);

    const listed = await shiro(["sessions", "--json"], { cwd, home });
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout);
    const result = resultOf(priced.stdout);
    expect(rows.map((s: any) => s.id)).toEqual([unpriced, result.sessionId]);
    expect(rows[1]).toMatchObject({ cwd, model: "gpt-5", title: "a priced job", messages: 8, state: "answered" });
    // Summed per response vs priced once for the run: equal up to float rounding.
    expect(rows[1].costUsd).toBeCloseTo(result.costUsd, 12);
    expect(rows[1].tokens).toEqual({ input: result.usage.inputTokens, cached: result.usage.cachedTokens, output: result.usage.outputTokens, reasoning: result.usage.reasoningTokens });
    expect(rows[0].costUsd).toBeNull();

  });

  test("two `shiro -p` at once in one folder: both session files parse and both are listed", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    const runs = await Promise.all(
      ["first of two", "second of two"].map((text) => shiro(["-p", "--json", "--yolo", text], { cwd, home })),
    );
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    // Neither run stopped saving (its log would then be gone): the warning names why, when one did —
    // on stderr, or with --json as a notice on stdout.
    expect(runs.flatMap((r) => r.stderr.split("\n").filter((line) => line.startsWith("! ")))).toEqual([]);
    expect(runs.flatMap((r) => r.stdout.split("\n").filter((line) => line.includes('"type":"notice","level":"warn"')))).toEqual([]);
    const ids = runs.map((r) => resultOf(r.stdout).sessionId).sort();
    const sessions = await loadAll(home);
    expect(sessions.map((s) => s.id).sort()).toEqual(ids);
    for (const s of sessions) expect(s.messages).toHaveLength(8);
    for (const text of ["first of two", "second of two"]) expect(requestsOf(server.requests, text)).toHaveLength(4);
    const listed = await shiro(["sessions", "--json"], { cwd, home });
    expect(JSON.parse(listed.stdout).map((s: any) => s.id).sort()).toEqual(ids);
    expect(listed.stderr).toBe("");
  });
});

describe("inspect and cost", () => {
  for (const [label, extra] of [["plain", []], ["compacted at 500 tokens", ["--compact-at", "500"]]] as const) {
    test(`inspect <call> --json rebuilds every call of a 4-step run byte for byte (${label})`, async () => {
      const home = tempDir("home");
      const cwd = tempDir("proj");
      const before = server.requests.length;
      const run = await shiro(["-p", "--yolo", "--json", ...extra, `a four-step job, ${label}`], { cwd, home });
      expect(run.code).toBe(0);
      const events = json(run.stdout);
      expect(events.some((e) => e.type === "compacted")).toBe(extra.length > 0);
      const sent = since(before);
      expect(sent).toHaveLength(4);
      // Calls 2–4 carry the task-list trailer written by call 1.
      expect(sent.slice(1).every((q) => q.body.input.at(-1).role === "developer")).toBe(true);

      const { sessionId } = resultOf(run.stdout);
      const lines = await inspectedBodies(sessionId, { cwd, home, env: env() });
      expect(lines).toHaveLength(4);
      lines.forEach((line, i) => expect(line).toBe(sent[i]!.raw));
      const one = await shiro(["inspect", sessionId.slice(0, 13), "3", "--json"], { cwd, home });
      expect(one.stdout.trimEnd()).toBe(sent[2]!.raw);
    });
  }

  test("a context overflow and its smaller retry: inspect rebuilds the refused requests too, and shows each outcome", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    const before = server.requests.length;
    const run = await shiro(["-p", "--yolo", "--json", "-m", "gpt-5-mini", "overflow the window"], { cwd, home });
    const sent = since(before);
    expect(sent.some((q) => q.status === 400 && q.raw.length > 0)).toBe(true);
    const notices = json(run.stdout).filter((e) => e.type === "notice").map((e) => e.text);
    expect(notices).toContain("the request exceeded the model's context window; compacting harder and retrying once");

    const { sessionId } = resultOf(run.stdout);
    const lines = await inspectedBodies(sessionId, { cwd, home, env: env() });
    expect(lines).toHaveLength(sent.length);
    lines.forEach((line, i) => expect(line).toBe(sent[i]!.raw));

    const [turn] = JSON.parse((await shiro(["inspect", sessionId, "--turns", "--json"], { cwd, home })).stdout).turns;
    expect(turn.calls.map((c: any) => c.status)).toEqual(sent.map((q) => (q.status === 200 ? "completed" : "error")));
    const retry = sent.findIndex((q) => q.status === 400) + 1;
    expect(turn.calls[retry].new).toContainEqual({ kind: "harder" });
    const text = (await shiro(["inspect", sessionId, "--turns"], { cwd, home })).stdout;
    expect(text).toMatch(new RegExp(`^  call ${retry + 1} .* new: compacted harder \\(after an overflow\\)$`, "m"));
    expect((await shiro(["inspect", sessionId, String(retry + 1)], { cwd, home })).stdout).toContain("· compacted harder");
  });

  test("Ctrl-C while the model streams: exit 130, the session is saved and inspect says the call was aborted", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    server.inject({ delayMs: 5_000, afterEventCount: 3 });
    const before = server.requests.length;
    const proc = Bun.spawn([BINARY, "-p", "--json", "-m", "echo-model", "stop me"], {
      cwd,
      env: { PATH: process.env.PATH!, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: server.url },
      stdout: "pipe",
      stderr: "pipe",
    });
    await waitUntil(() => server.requests.slice(before).some((r) => r.status === 200), "the answer's stream began");
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    const { sessionId, status } = resultOf(await new Response(proc.stdout).text());
    expect(status).toBe("aborted");
    const text = (await shiro(["inspect", sessionId, "1"], { cwd, home })).stdout;
    expect(text.split("\n").filter((l) => l.startsWith("response: "))).toEqual(["response: aborted"]);
    expect((await shiro(["inspect", sessionId, "--turns"], { cwd, home })).stdout).toMatch(/^turn 1 · interrupted · "stop me" · 1 call/m);
  });

  test("inspect <call> is clipped unless --full; a call it does not have → exit 2", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    const run = await shiro(["-p", "--yolo", "--json", "inspect me"], { cwd, home });
    const { sessionId } = resultOf(run.stdout);
    const report = "line of the report\n".repeat(120);

    const clipped = await shiro(["inspect", sessionId, "4"], { cwd, home });
    expect(clipped.code).toBe(0);
    expect(clipped.stdout).toStartWith(`session ${sessionId} · 4 model calls (strings clipped to 200 chars; --full shows all)`);
    expect(clipped.stdout).toContain("── call 4 of 4 · gpt-5 · built from 7 messages · instructions+tools as call 1");
    expect(clipped.stdout).toContain("… [+");
    expect(clipped.stdout).not.toContain(JSON.stringify(report));
    expect(clipped.stdout).toMatch(/response: completed · resp_\w+ · [\d,]+ in \([\d,]+ cached\) · [\d,]+ out/);

    const full = await shiro(["inspect", sessionId, "4", "--full"], { cwd, home });
    expect(full.stdout).toContain(JSON.stringify(JSON.stringify({ path: "report.md", content: report })));
    expect(full.stdout).not.toContain("… [+");

    const bad = await shiro(["inspect", sessionId, "5"], { cwd, home });
    expect([bad.code, bad.stderr.trim(), bad.stdout]).toEqual([2, "shiro: no call 5: the session has calls 1–4", ""]);
    const notNumber = await shiro(["inspect", sessionId, "two"], { cwd, home });
    expect([notNumber.code, notNumber.stderr.trim()]).toEqual([2, 'shiro: a call is a number from shiro inspect <session> --turns, got "two"']);
    const unknown = await shiro(["inspect", "ffff"], { cwd, home });
    expect(unknown.code).toBe(2);
  });

  test("the --json result carries usage and cost: gpt-5 at its list price, an unpriced model null", async () => {
    const home = tempDir("home");
    const cwd = tempDir("proj");
    const run = await shiro(["-p", "--yolo", "--json", "price this job"], { cwd, home });
    const { usage, costUsd } = resultOf(run.stdout);
    expect(usage.inputTokens).toBeGreaterThan(usage.cachedTokens);
    expect(usage.cachedTokens).toBeGreaterThan(0);
    expect(usage.outputTokens).toBeGreaterThan(usage.reasoningTokens);
    const perMillion = (usage.inputTokens - usage.cachedTokens) * 1.25 + usage.cachedTokens * 0.125 + usage.outputTokens * 10;
    expect(costUsd).toBeCloseTo(perMillion / 1e6, 12);

    const echo = resultOf((await shiro(["-p", "--json", "-m", "echo-model", "hi"], { cwd, home })).stdout);
    expect(echo.usage.inputTokens).toBeGreaterThan(0);
    expect(echo.costUsd).toBeNull();
  });
});
