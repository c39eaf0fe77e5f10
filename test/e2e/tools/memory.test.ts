// Project memory end to end: dist/shiro against the strict local API, asserting on the memory file under
// $SHIRO_HOME/memory and on the instructions and tools each request carried.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { memoryFileOf, note, readNotes, writeNotes } from "../../support/memory-fixtures.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const HEADER = "What you learned about this project in earlier sessions.";
const GOTCHA = "bun test needs --timeout 30000 because bunfig's timeout is ignored";
const MEMORY_TOOLS = ["remember", "recall", "forget"];

/** Remembers the gotcha when the tool is offered; otherwise just answers (a model cannot call what it is not given). */
const rememberModel: ScriptedModel = (req) =>
  req.tools.some((t: { name: string }) => t.name === "remember")
    ? sequenceModel([{ name: "remember", arguments: { kind: "gotcha", text: GOTCHA } }], "Noted.")(req)
    : { text: "I have no memory tools in this session." };

const MERGE_PROMPT = "You are tidying the notes";
/** Answers the /memory merge prompt with prose the first time and with a valid merge the second. */
function mergeModel(): ScriptedModel {
  let asked = 0;
  return ({ input }) => {
    const prompt = JSON.stringify(input);
    if (!prompt.includes(MERGE_PROMPT)) return { text: "ok" };
    asked++;
    if (asked === 1) return { text: "Sure! Here are your merged notes: the build uses bun, and tests are fast." };
    return { text: JSON.stringify({ notes: [{ kind: "command", text: "build and test with bun run build && bun test", from: ["b1", "t1"] }] }) };
  };
}

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "mem-remember": rememberModel,
      "mem-recall": sequenceModel([{ name: "recall", arguments: { query: "test command" } }], (input) => `From my notes: ${visibleOutputs(input)[0]?.output}`),
      "mem-forget": sequenceModel([{ name: "forget", arguments: { text: "ancient" } }], "Forgotten."),
      "mem-merge": mergeModel(),
    },
  });
});
afterAll(() => server.stop());

const env = () => ({ OPENAI_BASE_URL: server.url });
const since = (n: number) => server.requests.slice(n);
const toolNames = (body: any): string[] => body.tools.map((t: { name: string }) => t.name);

/** One print-mode run; returns its requests. */
async function print(args: string[], cwd: string, home: string) {
  const before = server.requests.length;
  const r = await runShiro(["-p", ...args], { cwd, home, env: env() });
  if (r.code !== 0) throw new Error(`shiro ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return { ...r, requests: since(before) };
}

describe("project memory end to end (compiled binary ↔ strict local API)", () => {
  test("a gotcha remembered in one session is in the next session's first request, not in its own", async () => {
    const cwd = tempDir("mem-proj");
    const home = tempDir("mem-home");
    const first = await print(["-m", "mem-remember", "learn how tests run here"], cwd, home);
    expect(first.stdout).toBe("Noted.\n");
    expect(first.requests).toHaveLength(2);
    expect(toolNames(first.requests[0]!.body)).toEqual(expect.arrayContaining(MEMORY_TOOLS));

    const notes = readNotes(home, cwd);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: "gotcha", text: GOTCHA, hits: 0 });
    // The session that learnt it keeps byte-identical instructions (the cached prefix), so it does not see it there.
    const [a, b] = first.requests.map((q) => q.body.instructions);
    expect(b).toBe(a);
    expect(a).not.toContain(GOTCHA);

    const second = await print(["-m", "mem-echo", "hello"], cwd, home);
    const instructions: string = second.requests[0]!.body.instructions;
    expect(instructions).toContain(`${HEADER} Trust it, but verify anything that contradicts what you can see in the code now:\n- (gotcha) ${GOTCHA}`);

    // Another project has its own memory.
    const elsewhere = await print(["-m", "mem-echo", "hello"], tempDir("mem-other"), home);
    expect(elsewhere.requests[0]!.body.instructions).not.toContain(HEADER);
  });

  test("recall counts a hit on disk and ranks the note first next time; forget removes a note from disk and from later sessions", async () => {
    const cwd = tempDir("mem-proj");
    const home = tempDir("mem-home");
    writeNotes(home, cwd, [
      note("n1", "fact", "the ancient parser lives in src/legacy and is never called"),
      note("n2", "decision", "errors carry data, never stack traces"),
      note("n3", "command", "the test command is bun run test"),
    ]);

    const recalled = await print(["-m", "mem-recall", "how do I run the tests?"], cwd, home);
    expect(recalled.stdout).toBe("From my notes: - (command) the test command is bun run test\n");
    const afterRecall = readNotes(home, cwd);
    expect(afterRecall.map((n) => [n.id, n.hits])).toEqual([["n1", 0], ["n2", 0], ["n3", 1]]);
    expect(Date.parse(afterRecall[2]!.lastHitAt!)).toBeGreaterThan(Date.now() - 60_000);

    const forgotten = await print(["-m", "mem-forget", "drop the note about the legacy parser"], cwd, home);
    expect(forgotten.requests[1]!.body.input.at(-1).output).toBe("Forgot 1 note:\n- (fact) the ancient parser lives in src/legacy and is never called");
    expect(readNotes(home, cwd).map((n) => n.id)).toEqual(["n2", "n3"]);

    const next = await print(["-m", "mem-echo", "hello"], cwd, home);
    const instructions: string = next.requests[0]!.body.instructions;
    expect(instructions).not.toContain("ancient parser");
    // Most recalled first.
    expect(instructions).toContain(":\n- (command) the test command is bun run test\n- (decision) errors carry data, never stack traces");
  });

  test("--no-memory sends no memory section or tools and writes nothing", async () => {
    const cwd = tempDir("mem-proj");
    const home = tempDir("mem-home");
    const bytes = writeNotes(home, cwd, [note("n1", "fact", "the build script is build.ts", 2)]);

    const off = await print(["--no-memory", "-m", "mem-remember", "learn how tests run here"], cwd, home);
    expect(off.stdout).toBe("I have no memory tools in this session.\n");
    for (const q of off.requests) {
      for (const name of MEMORY_TOOLS) expect(toolNames(q.body)).not.toContain(name);
      expect(toolNames(q.body)).toContain("todo_write");
      expect(q.body.instructions).not.toContain(HEADER);
      expect(q.body.instructions).not.toContain("build.ts");
    }
    expect(readFileSync(memoryFileOf(home, cwd), "utf8")).toBe(bytes);

    // A fresh home stays without a memory directory at all.
    const fresh = tempDir("mem-home");
    await print(["--no-memory", "-m", "mem-remember", "learn"], cwd, fresh);
    expect(existsSync(join(fresh, "memory"))).toBe(false);

    // The same run with memory on does send the section and record the note.
    const on = await print(["-m", "mem-remember", "learn how tests run here"], cwd, home);
    expect(on.requests[0]!.body.instructions).toContain("- (fact) the build script is build.ts");
    expect(readNotes(home, cwd).map((n) => n.text)).toEqual(["the build script is build.ts", GOTCHA]);
  });

  test("an unreadable memory file is reported once, left byte-identical, and not written to", async () => {
    const cwd = tempDir("mem-proj");
    const home = tempDir("mem-home");
    writeNotes(home, cwd, []);
    const path = memoryFileOf(home, cwd);
    const broken = '{"version": 1, "entries": [{"id": "x", "kind": "gotcha"';
    writeFileSync(path, broken);
    const r = await print(["-m", "mem-remember", "learn"], cwd, home);
    expect(r.stderr.split("\n").filter((l) => l.includes("project memory ignored"))).toHaveLength(1);
    expect(r.stderr).toContain(`${path} is not valid JSON`);
    expect(r.requests[0]!.body.instructions).not.toContain(HEADER);
    expect(r.requests[1]!.body.input.at(-1).output).toContain("project memory is unreadable, so nothing was changed");
    expect(readFileSync(path, "utf8")).toBe(broken);
  });
});

describe("memory commands in the REPL (pty)", () => {
  const startRepl = (cwd: string, home: string, model: string) =>
    spawnPty([BINARY, "-m", model], {
      cwd,
      env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: server.url, NO_COLOR: "1" },
      cols: 120,
    });

  test("/notes lists the notes with hit counts, most used first, in aligned columns", async () => {
    const cwd = tempDir("mem-proj");
    const home = tempDir("mem-home");
    writeNotes(home, cwd, [
      note("a1", "fact", "sessions live in $SHIRO_HOME/sessions", 0),
      note("a2", "gotcha", "the pty harness needs the prompt before typing", 12),
      note("a3", "command", "bun run typecheck", 3),
    ]);
    await using pty = startRepl(cwd, home, "mem-echo");
    await pty.waitFor("› ");
    const mark = pty.mark();
    await pty.type("/notes");
    pty.write(keys.enter);
    await pty.waitFor("sessions live in", { since: mark });
    const screen = pty.screen();
    expect(screen).toContain(
      [
        "hits  kind     note",
        "  12  gotcha   the pty harness needs the prompt before typing",
        "   3  command  bun run typecheck",
        "   0  fact     sessions live in $SHIRO_HOME/sessions",
      ].join("\n"),
    );
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
  });

  test("/memory with a garbage answer leaves the file byte-identical; a valid one merges", async () => {
    const cwd = tempDir("mem-proj");
    const home = tempDir("mem-home");
    const bytes = writeNotes(home, cwd, [
      note("b1", "command", "build with bun run build"),
      note("t1", "command", "test with bun test"),
      note("p1", "gotcha", "recalled notes stay verbatim", 4),
    ]);
    const path = memoryFileOf(home, cwd);
    await using pty = startRepl(cwd, home, "mem-merge");
    await pty.waitFor("› ");
    const before = server.requests.length;
    let mark = pty.mark();
    await pty.type("/memory");
    pty.write(keys.enter);
    await pty.waitFor("The model's answer was not valid merge JSON; memory was left as it was.", { since: mark, timeoutMs: 5000 });
    expect(readFileSync(path, "utf8")).toBe(bytes);
    // The merge request went out, with the recalled note as context only.
    const ask = since(before);
    expect(ask).toHaveLength(1);
    expect(ask[0]!.body.tools).toEqual([]);
    expect(ask[0]!.raw).toContain('{\\"id\\":\\"b1\\"');
    expect(ask[0]!.raw).not.toContain('{\\"id\\":\\"p1\\"');

    mark = pty.mark();
    await pty.type("/memory");
    pty.write(keys.enter);
    await pty.waitFor("merged 3 notes into 2", { since: mark, timeoutMs: 5000 });
    const merged = readNotes(home, cwd);
    expect(merged.map((n) => [n.kind, n.text, n.hits])).toEqual([
      ["gotcha", "recalled notes stay verbatim", 4],
      ["command", "build and test with bun run build && bun test", 0],
    ]);
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
  });
});
