import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSessionStore } from "../../../src/store/session-store.ts";
import { INTERRUPTED_OUTPUT } from "../../../src/wire/serialise-input.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { appendMessages, everyKind, turn } from "../../support/session-fixtures.ts";

const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
const storeIn = () => createSessionStore(join(tempDir("store"), "sessions"));
const answered = async (store: ReturnType<typeof storeIn>, cwd: string, minute: number) => {
  const s = await store.create({ cwd, model: "gpt-5" });
  appendMessages(s, turn(minute), at(minute));
  await store.remember(s.state);
  s.close();
  return s.id;
};

describe("the session store", () => {
  test("nothing is written before the first event; then a 0600 log whose every kind of fact comes back on open", async () => {
    const store = storeIn();
    const s = await store.create({ cwd: "/p", model: "gpt-5" });
    expect(existsSync(s.path)).toBe(false);
    appendMessages(s, everyKind());
    s.append({ type: "todos", todos: [{ content: "ship", status: "in_progress" }] }, { type: "window", model: "gpt-5", tokens: 17_080 }, { type: "model", model: "gpt-5-mini" });
    s.close();
    expect(statSync(s.path).mode & 0o777).toBe(0o600);
    const warnings: string[] = [];
    const opened = await store.open(s.id, (w) => warnings.push(w));
    if (!opened.ok) throw new Error(opened.error.message);
    const state = opened.session.state;
    expect(state.messages).toEqual(everyKind());
    expect(state.notebook.todos).toEqual([{ content: "ship", status: "in_progress" }]);
    expect([state.model, state.contextWindow]).toEqual(["gpt-5-mini", { model: "gpt-5", tokens: 17_080 }]);
    expect(warnings).toEqual([]);
    opened.session.close();
  });

  test("a run that died mid-call and mid-tool: open ends the call as aborted and gives the tools an unknown outcome, never a re-run", async () => {
    const store = storeIn();
    const s = await store.create({ cwd: "/p", model: "gpt-5" });
    const [user, answer] = turn(1);
    appendMessages(s, [user!, answer!]);
    s.append({ type: "verdict", callId: "call_1", allowed: true }, { type: "tool", callId: "call_1" });
    s.close();
    const warnings: string[] = [];
    const opened = await store.open(s.id, (w) => warnings.push(w));
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.session.state.messages.at(-1)).toEqual({ role: "tool", results: [{ callId: "call_1", output: INTERRUPTED_OUTPUT, isError: true }] });
    expect(warnings).toEqual(["1 tool call(s) were interrupted when this session last ran; the model is told their outcome is unknown"]);
    opened.session.close();
    // The repair is in the log: a second open finds nothing to repair.
    const again = await store.open(s.id, (w) => warnings.push(w));
    expect(warnings).toHaveLength(1);
    if (again.ok) again.session.close();
  });

  test("a torn last line is dropped with a warning and cut off, and the log goes on cleanly after it", async () => {
    const store = storeIn();
    const s = await store.create({ cwd: "/p", model: "gpt-5" });
    appendMessages(s, turn(1));
    s.close();
    appendFileSync(s.path, '{"type":"user","text":"half a li');
    const warnings: string[] = [];
    const opened = await store.open(s.id, (w) => warnings.push(w));
    if (!opened.ok) throw new Error(opened.error.message);
    expect(warnings).toEqual([`the last line of session ${s.id} was cut short (shiro was stopped mid-write) and is dropped`]);
    opened.session.append({ type: "user", text: "whole", at: at(2) });
    opened.session.close();
    const read = await store.read(s.id);
    expect(read.ok && read.state.messages.at(-1)).toEqual({ role: "user", text: "whole" });
    expect(readFileSync(s.path, "utf8")).not.toContain("half a li");
  });

  test("a bad line in the middle: the log is read up to it; -c continues that part as a new session naming its origin, the damaged file untouched", async () => {
    const store = storeIn();
    const older = await answered(store, "/p", 1);
    const newer = await answered(store, "/p", 2);
    const path = join(store.dir, `${newer}.jsonl`);
    const lines = readFileSync(path, "utf8").split("\n");
    lines[3] = "{broken";
    writeFileSync(path, lines.join("\n"));
    const bytes = readFileSync(path);
    const read = await store.read(newer);
    if (!read.ok) throw new Error(read.message);
    expect([read.damaged, read.events.length]).toEqual([{ line: 4, reason: "not JSON" }, 3]);
    expect((await store.list({ cwd: "/p" })).sessions.map((s) => [s.id, s.state])).toEqual([[newer, "damaged"], [older, "answered"]]);
    const warnings: string[] = [];
    const opened = await store.openNewest("/p", (w) => warnings.push(w));
    if (!opened?.ok) throw new Error("not opened");
    const copy = opened.session;
    expect(copy.id).not.toBe(newer);
    expect(copy.state.forkedFrom).toEqual({ id: newer, events: 3 });
    expect(copy.state.messages).toEqual(turn(2).slice(0, 1));
    expect(warnings).toEqual([
      `session ${newer} is damaged at line 4 of its log (not JSON); continuing from the 3 lines before it as a new session, ${copy.id} (the damaged log is left as it is)`,
    ]);
    copy.close();
    expect(readFileSync(path)).toEqual(bytes);
    // An undo must change that very log: it is refused, saying how to go on.
    const forUndo = await store.open(newer, () => {}, { copyIfOpen: false });
    expect(forUndo.ok ? "" : forUndo.error.kind).toBe("damaged");
  });

  test("a log whose first line is bad has nothing to go on from: -c says so rather than continue an older one", async () => {
    const store = storeIn();
    await answered(store, "/p", 1);
    const newer = await answered(store, "/p", 2);
    const path = join(store.dir, `${newer}.jsonl`);
    writeFileSync(path, "garbage\n" + readFileSync(path, "utf8").split("\n").slice(1).join("\n"));
    const opened = await store.openNewest("/p", () => {});
    expect(opened?.ok ? "" : opened?.error.message).toBe(`session ${newer} cannot be read (${path} line 1: not JSON)`);
  });

  test("listing is per folder (newest first), every folder's with all; each with what became of its last run", async () => {
    const store = storeIn();
    const a1 = await answered(store, "/a", 1);
    const b1 = await answered(store, "/b", 2);
    const a2 = await answered(store, "/a", 3);
    const failed = await store.create({ cwd: "/a", model: "gpt-5" });
    failed.append({ type: "user", text: "typo", at: at(4) });
    await store.remember(failed.state);
    failed.close();
    const here = await store.list({ cwd: "/a" });
    expect(here.sessions.map((s) => [s.id, s.state])).toEqual([[failed.id, "no-answer"], [a2, "answered"], [a1, "answered"]]);
    expect((await store.list({ cwd: "/b" })).sessions.map((s) => s.id)).toEqual([b1]);
    expect((await store.list({ cwd: "/a", all: true })).sessions.map((s) => [s.id, s.cwd])).toEqual([[failed.id, "/a"], [a2, "/a"], [b1, "/b"], [a1, "/a"]]);
    // -c takes the newest, answered or not.
    const newest = await store.openNewest("/a", () => {});
    if (newest?.ok) newest.session.close();
    expect(newest?.ok && newest.session.id).toBe(failed.id);
  });

  test("a log changed since its entry was written (a run killed after it) is listed as it now stands; one removed is not listed", async () => {
    const store = storeIn();
    const gone = await answered(store, "/p", 1);
    const s = await store.create({ cwd: "/p", model: "gpt-5" });
    const [user, answer] = turn(2);
    appendMessages(s, [user!]);
    await store.remember(s.state);
    appendMessages(s, [answer!]); // killed before the next entry: the index still says "no answer"
    s.close();
    rmSync(join(store.dir, `${gone}.jsonl`));
    expect((await store.list({ cwd: "/p" })).sessions.map((e) => [e.id, e.state, e.messageCount])).toEqual([[s.id, "interrupted", 2]]);
  });

  test("resolvePrefix: a full id, a unique prefix, an ambiguous one listing its matches, none", async () => {
    const store = storeIn();
    const ids = [await answered(store, "/p", 1), await answered(store, "/p", 2)];
    expect(await store.resolvePrefix(ids[0]!)).toEqual({ kind: "one", id: ids[0]! });
    expect(await store.resolvePrefix(ids[1]!.slice(0, 30).toUpperCase())).toEqual({ kind: "one", id: ids[1]! });
    const common = ids[0]!.slice(0, 4);
    const both = await store.resolvePrefix(common);
    expect(both.kind === "ambiguous" && both.matches.map((m) => m.id).sort()).toEqual([...ids].sort());
    expect(await store.resolvePrefix("ffff")).toEqual({ kind: "none", prefix: "ffff" });
  });
});

describe("sessions from before logs (schema 1)", () => {
  test("are listed from the first use, and converted on first open: the log written, the old file kept aside", async () => {
    const home = tempDir("v1");
    const dir = join(home, "sessions");
    mkdirSync(dir, { recursive: true });
    const fixture = readFileSync(join(import.meta.dir, "..", "..", "fixtures", "sessions", "schema1-two-turns.json"), "utf8");
    const id = JSON.parse(fixture).id as string;
    writeFileSync(join(dir, `${id}.json`), fixture);
    const store = createSessionStore(dir);
    const listed = await store.list({ cwd: "/tmp/shiro-fixture-project" });
    expect(listed.sessions.map((s) => [s.id, s.title, s.messageCount])).toEqual([[id, "summarise notes.txt", 10]]);
    const opened = await store.open(id, () => {});
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.session.state.messages).toEqual(JSON.parse(fixture).messages);
    opened.session.close();
    expect(existsSync(join(dir, `${id}.jsonl`))).toBe(true);
    expect(existsSync(join(dir, `${id}.schema1.json`))).toBe(true);
    expect(existsSync(join(dir, `${id}.json`))).toBe(false);
  });
});
