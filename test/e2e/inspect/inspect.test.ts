/**
 * The inspector's three levels through the binary, on a session the binary made against the strict
 * server: turn 1 reads a file (a tool call), turn 2 reads large files until the history no longer
 * fits an 8,000-token window and continues from a summary (a compaction), turn 3 writes a file and
 * is undone with `shiro undo`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type RecordedRequest, type StrictServer } from "../../support/strict-server.ts";
import { firstUserText, lastUserText, sequenceModel } from "../../support/scripts.ts";
import { readingProject } from "../../support/long-job.ts";
import type { ScriptedModel } from "../../support/turn.ts";
import { writeLongSession } from "../../support/long-session.ts";

const SUMMARY_PREAMBLE = "Summary of the conversation so far";
const NOTE = "the heron flies at dawn";
const SUMMARY = "## Goal\nRead big0.txt to big3.txt.\n\n## Files touched\nnone\n\n## Decisions\nnone\n\n## Commands and outcomes\n- read_file big0.txt → ok\n\n## What remains\nanswer";
const PROMPTS = ["Read notes.txt and tell me what it says.", "Now read big0.txt to big3.txt one by one.", "Write out.txt saying done."] as const;

const notes = sequenceModel([{ name: "read_file", arguments: { path: "notes.txt" } }], "notes.txt says: the heron flies at dawn");
const bigs = sequenceModel([0, 1, 2, 3].map((i) => ({ name: "read_file", arguments: { path: `big${i}.txt` } })), "read the big files");
const writer = sequenceModel([{ name: "write_file", arguments: { path: "out.txt", content: "done\n" } }], "wrote out.txt");
/** Asked without tools, it summarises; from a summary it answers at once; otherwise each prompt has its job. */
const model: ScriptedModel = (req) => {
  if (req.tools.length === 0) return { text: SUMMARY };
  const last = lastUserText(req.input);
  if (last === PROMPTS[2]) return writer(req);
  if (firstUserText(req.input).startsWith(SUMMARY_PREAMBLE)) return { text: "continued from the summary" };
  return last === PROMPTS[0] ? notes(req) : bigs(req);
};

let server: StrictServer;
let home: string;
let cwd: string;
let id: string;
/** The requests the session sent, in order (the summary request is no call of the session's). */
let sent: RecordedRequest[];

const shiro = (args: string[], opts: { home?: string } = {}) => runShiro(args, { cwd, home: opts.home ?? home, env: { OPENAI_BASE_URL: server.url } });

beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": model } });
  home = tempDir("inspect-home");
  cwd = readingProject("big", 4, 20_000);
  writeFileSync(join(cwd, "notes.txt"), `${NOTE}\n`);
  writeFileSync(join(home, "config.json"), JSON.stringify({ contextWindow: 8_000 }));
  for (const [i, prompt] of PROMPTS.entries()) {
    const r = await shiro(["-p", "--yolo", ...(i ? ["-c"] : []), prompt]);
    expect(r.code).toBe(0);
  }
  const undo = await shiro(["undo", "--json"]);
  expect(undo.code).toBe(0);
  sent = server.requests.filter((q) => q.body.tools.length > 0);
  id = JSON.parse((await shiro(["sessions", "--json"])).stdout)[0].id;
});
afterAll(async () => {
  await server.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const lines = (text: string) => text.trimEnd().split("\n");
/** Bodies that must never show in the overview or the turn list: instructions, a tool's schema, tool output, the summary. */
function expectNoBodies(text: string) {
  const first = sent[0]!.body;
  expect(text).not.toContain(first.instructions.slice(0, 40));
  expect(text).not.toContain(first.tools[0].description.slice(0, 40));
  expect(text).not.toContain("additionalProperties");
  expect(text).not.toContain(NOTE);
  expect(text).not.toContain("the quick brown fox");
  expect(text).not.toContain("## Goal");
}
/** What the log on disk says each turn's responses used: the figures the rows must add up to. */
function usageByTurn(): { input: number; output: number }[] {
  const events = readFileSync(join(home, "sessions", `${id}.jsonl`), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  const turns: { input: number; output: number }[] = [];
  for (const e of events) {
    if (e.type === "user") turns.push({ input: 0, output: 0 });
    const usage = e.type === "response" ? (e.usage ?? e.message?.usage) : undefined;
    if (usage) {
      turns.at(-1)!.input += usage.inputTokens;
      turns.at(-1)!.output += usage.outputTokens;
    }
  }
  return turns;
}

describe("shiro inspect: overview, turns, one call (binary ↔ strict server)", () => {
  test("the session was made as meant: 6 calls, the 4th sent from the summary, turn 3 undone", () => {
    expect(sent).toHaveLength(6);
    expect(firstUserText(sent[3]!.body.input)).toStartWith(SUMMARY_PREAMBLE);
    expect(sent.map((q) => q.status)).toEqual(Array(6).fill(200));
  });

  test("the overview: title, model, state, size on disk, one row per turn (the undone one as such), and no body", async () => {
    const r = await shiro(["inspect", id]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const out = lines(r.stdout);
    const log = join(home, "sessions", `${id}.jsonl`);
    const logLines = lines(readFileSync(log, "utf8")).length;
    expect(out.slice(0, 7)).toEqual([
      `session  ${id}`,
      `title    ${PROMPTS[0]}`,
      "model    gpt-5",
      "state    answered",
      `log      ${Math.round(statSync(log).size / 1024)} KiB on disk, ${logLines} lines`,
      `folder   ${cwd}`,
      expect.stringMatching(/^total    3 turns \(1 undone\) · 6 model calls · [\d.]+k tok · \$0\.\d+$/),
    ]);
    const rows = out.filter((l) => /^ +\d  /.test(l)).map((l) => l.trim().split(/ {2,}/));
    expect(rows.map((r) => r.slice(0, 4))).toEqual([
      ["1", "answered", PROMPTS[0], "2 calls"],
      ["2", "answered", PROMPTS[1], "2 calls"],
      ["3", "undone", PROMPTS[2], "2 calls"],
    ]);
    const used = usageByTurn();
    expect(rows.map((r) => r[4])).toEqual(used.map((u) => `${((u.input + u.output) / 1000).toFixed(1)}k tok`));
    expect(rows.every((r) => /^\$0\.\d+$/.test(r[5]!))).toBe(true);
    expectNoBodies(r.stdout);
  });

  test("--json: the same overview for scripts, each turn's calls and tokens, and no body", async () => {
    const r = await shiro(["inspect", id.slice(0, 13), "--json"]);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ id, title: PROMPTS[0], models: ["gpt-5"], state: "answered", bytes: statSync(join(home, "sessions", `${id}.jsonl`)).size, calls: 6 });
    expect(o.turns.map((t: any) => [t.turn, t.state, t.undone, t.prompt, t.calls])).toEqual([
      [1, "answered", false, PROMPTS[0], [1, 2]],
      [2, "answered", false, PROMPTS[1], [3, 4]],
      [3, "answered", true, PROMPTS[2], [5, 6]],
    ]);
    expect(o.turns.map((t: any) => ({ input: t.tokens.input, output: t.tokens.output }))).toEqual(usageByTurn());
    // gpt-5's list price: $1.25 per million uncached input tokens, $0.125 cached, $10 output.
    for (const t of o.turns) expect(t.costUsd).toBeCloseTo(((t.tokens.input - t.tokens.cached) * 1.25 + t.tokens.cached * 0.125 + t.tokens.output * 10) / 1e6, 12);
    expectNoBodies(r.stdout);
  });

  test("--turns: each call on one line with what was new in it — the prompt, a tool result, the compaction — and no body", async () => {
    const r = await shiro(["inspect", id, "--turns"]);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.filter((l) => l.startsWith("turn "))).toEqual([
      expect.stringMatching(new RegExp(`^turn 1 · answered · "${PROMPTS[0]}" · 2 calls · `)),
      expect.stringMatching(new RegExp(`^turn 2 · answered · "${PROMPTS[1]}" · 2 calls · `)),
      expect.stringMatching(new RegExp(`^turn 3 · undone \\(it had answered\\) · "${PROMPTS[2]}" · 2 calls · `)),
    ]);
    const calls = out.filter((l) => l.startsWith("  call "));
    expect(calls).toHaveLength(6);
    const news = calls.map((l) => l.slice(l.indexOf("new: ") + 5));
    expect(news).toEqual([
      `prompt "${PROMPTS[0]}" · instructions (${sent[0]!.body.instructions.length} chars) · ${sent[0]!.body.tools.length} tools`,
      expect.stringMatching(/^1 result \(read_file [\d,]+ chars\)$/),
      `prompt "${PROMPTS[1]}"`,
      expect.stringMatching(new RegExp(`^1 result \\(read_file [\\d,]+ chars\\) · compaction \\(${SUMMARY.length}-char summary\\)$`)),
      `prompt "${PROMPTS[2]}"`,
      expect.stringMatching(/^1 result \(write_file [\d,]+ chars\)$/),
    ]);
    expect(calls.map((l) => l.split(/ {2,}/)[3])).toEqual(["→ read_file", "→ answer", "→ read_file", "→ answer", "→ write_file", "→ answer"]);
    expectNoBodies(r.stdout);

    const j = JSON.parse((await shiro(["inspect", id, "--turns", "--json"])).stdout);
    expect(j.turns.map((t: any) => t.calls.map((c: any) => c.call))).toEqual([[1, 2], [3, 4], [5, 6]]);
    expect(j.turns[2]).toMatchObject({ undone: true, undoneAt: expect.any(String) });
    const fourth = j.turns[1].calls[1];
    expect(fourth).toMatchObject({ call: 4, status: "completed", toolCalls: [], messages: 8, reused: 5 });
    expect(fourth.new.map((n: any) => n.kind)).toEqual(["results", "compaction"]);
    expect(fourth.new[1]).toEqual({ kind: "compaction", chars: SUMMARY.length });
    expectNoBodies(JSON.stringify(j));
  });

  test("<call>: the exact body, byte for byte with --json; clipped unless --full", async () => {
    for (const [i, q] of sent.entries()) expect((await shiro(["inspect", id, String(i + 1), "--json"])).stdout).toBe(`${q.raw}\n`);
    const text = (await shiro(["inspect", id, "4"])).stdout;
    expect(text).toContain("── call 4 of 6 · gpt-5 · built from 8 messages · instructions+tools as call 1");
    expect(text).toContain("Summary of the conversation so far");
    expect(text).not.toContain(sent[0]!.body.instructions);
    expect((await shiro(["inspect", id, "4", "--full"])).stdout).toContain(JSON.stringify(sent[0]!.body.instructions));
  });

  test("--diff after the compaction: the summary is the one new message and item, the history before it is not sent again", async () => {
    const r = await shiro(["inspect", id, "4", "--diff"]);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out[0]).toStartWith("── call 4 of 6 · turn 2 · gpt-5 · against call 3");
    expect(out).toContain("  messages 1–5  as call 3");
    expect(out).toContain("  + message 6  the answer to call 3: read_file");
    expect(out).toContainEqual(expect.stringMatching(/^  \+ message 7  1 result \(read_file [\d,]+ chars\)$/));
    expect(out).toContain(`  + message 8  compaction (${SUMMARY.length}-char summary)`);
    expect(out).toContain("on the wire: 1 item");
    expect(out).toContain(`  − call 3's items 1–${sent[2]!.body.input.length}: not sent again`);
    expect(out).toContainEqual(expect.stringMatching(/^  \+ item 1  \{"type":"message","role":"user","content":\[\{"type":"input_text","text":"Summary of the conversation so far/));

    const j = JSON.parse((await shiro(["inspect", id, "4", "--diff", "--json"])).stdout);
    expect(j).toMatchObject({ call: 4, against: 3, turn: 2, log: { messages: 8, reused: 5, instructionsAs: 1 } });
    expect(j.log.added.map((m: any) => [m.message, m.role])).toEqual([[6, "assistant"], [7, "tool"], [8, "compaction"]]);
    expect(j.input).toEqual({ items: 1, reused: [], added: [{ item: 1, value: sent[3]!.body.input[0] }], dropped: [{ from: 1, to: sent[2]!.body.input.length }] });
    expect(j.fields.changed).toEqual([]);
  });

  test("--diff --json of every call rebuilds what was sent from the call before's items and its own new ones", async () => {
    for (let k = 1; k <= sent.length; k++) {
      const j = JSON.parse((await shiro(["inspect", id, String(k), "--diff", "--json"])).stdout);
      const before = k > 1 ? sent[k - 2]!.body.input : [];
      const items: unknown[] = [];
      for (const r of j.input.reused) for (let i = r.from; i <= r.to; i++) items[i - 1] = before[r.as + i - r.from - 1];
      for (const a of j.input.added) items[a.item - 1] = a.value;
      expect(items).toEqual(sent[k - 1]!.body.input);
      expect(j.against).toBe(k > 1 ? k - 1 : null);
    }
  });

  test("a damaged log is inspected up to its bad line, which every level names", async () => {
    const copy = tempDir("inspect-damaged");
    try {
      cpSync(home, copy, { recursive: true });
      const path = join(copy, "sessions", `${id}.jsonl`);
      const log = lines(readFileSync(path, "utf8"));
      const bad = log.findIndex((l) => l.includes(`"text":"${PROMPTS[1]}"`)) + 1; // turn 2's prompt
      log[bad - 1] = "{not json";
      writeFileSync(path, log.join("\n") + "\n");
      const warning = `! the log of session ${id} is damaged at line ${bad} (not JSON); what follows is the ${bad - 1} lines before it`;

      const r = await shiro(["inspect", id], { home: copy });
      expect([r.code, r.stderr]).toEqual([0, `${warning}\n`]);
      expect(lines(r.stdout)).toContain(`state    damaged at line ${bad} of its log (not JSON): shown up to line ${bad - 1}`);
      expect(lines(r.stdout).filter((l) => /^ +\d  /.test(l)).map((l) => l.trim().split(/ {2,}/).slice(0, 4))).toEqual([["1", "answered", PROMPTS[0], "2 calls"]]);

      const j = JSON.parse((await shiro(["inspect", id, "--json"], { home: copy })).stdout);
      expect(j).toMatchObject({ state: "damaged", damaged: { line: bad, reason: "not JSON" }, lines: bad - 1, calls: 2 });
      expect(j.turns).toHaveLength(1);
      const turns = await shiro(["inspect", id, "--turns"], { home: copy });
      expect(lines(turns.stdout).filter((l) => l.startsWith("  call "))).toHaveLength(2);
      expect(turns.stderr).toBe(`${warning}\n`);

      const past = await shiro(["inspect", id, "3"], { home: copy });
      expect([past.code, past.stdout]).toEqual([2, ""]);
      expect(past.stderr).toBe(`${warning}\nshiro: no call 3: the session has calls 1–2 (its log is read up to line ${bad - 1}: line ${bad} is damaged)\n`);
      expect((await shiro(["inspect", id, "2", "--json"], { home: copy })).stdout).toBe(`${sent[1]!.raw}\n`);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  test("a long session's views come whole through a pipe (1,000 turns: megabytes, not the pipe's first 64 KiB)", async () => {
    const big = tempDir("inspect-long");
    try {
      const long = await writeLongSession(big, cwd, 1_000);
      const turns = await shiro(["inspect", long, "--turns"], { home: big });
      expect(turns.code).toBe(0);
      expect(turns.stdout.length).toBeGreaterThan(300_000);
      expect(lines(turns.stdout).filter((l) => l.startsWith("turn ")).map((l) => Number(l.split(" ")[1]))).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
      expect(lines(turns.stdout).at(-1)).toStartWith("  call 2000 ");
      const json = JSON.parse((await shiro(["inspect", long, "--turns", "--json"], { home: big })).stdout);
      expect(json.turns).toHaveLength(1_000);
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  });
});
