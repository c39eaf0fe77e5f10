import { describe, expect, test } from "bun:test";
import { buildExport } from "../../../src/export/build-export.ts";
import { importEvents } from "../../../src/export/import-events.ts";
import { parseExport } from "../../../src/export/parse-export.ts";
import type { SessionExport } from "../../../src/export/export-schema.ts";
import { reduceSession } from "../../../src/session/reduce-session.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import { deniedOf, sampleLog, sampleState } from "../../support/export-fixtures.ts";

const NOW = "2026-12-03T00:00:00.000Z";
const exported = (): SessionExport => buildExport({ state: sampleState(), denied: deniedOf(sampleLog()) }, { exportedAt: "2026-12-02T00:00:00.000Z", shiro: "1.2.3" });
/** An export as a file carries it: through JSON text and back. */
const roundTrip = (doc: SessionExport): SessionExport => {
  const parsed = parseExport(JSON.stringify(doc));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.doc;
};
const head: SessionEvent = { type: "session", v: 2, id: "new", at: NOW, cwd: "/elsewhere", model: "gpt-5" };
const imported = (doc: SessionExport) => {
  const plan = importEvents(doc, NOW);
  if (!plan.ok) throw new Error(plan.reason);
  return reduceSession([head, ...plan.events]);
};

describe("importEvents: an export → the events of a new session", () => {
  test("the history comes back message for message, less what only the account that made it could send", () => {
    const original = sampleState();
    const state = imported(roundTrip(exported()));
    const strip = (json: string) => JSON.parse(json, (k, v) => (k === "itemId" || k === "responseId" || k === "encrypted" ? undefined : v));
    expect(state.messages).toEqual(strip(JSON.stringify(original.messages)));
    expect(JSON.stringify(state.messages)).not.toMatch(/itemId|responseId|encrypted/);
  });

  test("what the model is sent from it is what the original would send, less its encrypted reasoning", () => {
    const original = serialiseInput(sampleState().messages, { model: "gpt-5" }).filter((item) => item.type !== "reasoning");
    expect(serialiseInput(imported(roundTrip(exported())).messages, { model: "gpt-5" })).toEqual(original);
  });

  test("the turns, their prompts and times, the task list and where it came from; the next turn is numbered after them", () => {
    const state = imported(roundTrip(exported()));
    expect(state.turns).toEqual([
      { turn: 1, start: 0, text: "Fix <b>the</b> bug\n## and say why", at: "2026-12-01T10:00:00.000Z" },
      { turn: 2, start: 6, text: "and the docs?", at: "2026-12-01T10:05:00.000Z" },
    ]);
    expect([state.turnCount, state.answered, state.updatedAt, state.callLog.calls]).toEqual([2, true, NOW, []]);
    expect(state.notebook.todos.map((t) => t.content)).toEqual(["run the tests", "ship <it>"]);
    expect(state.importedFrom).toEqual({ id: "01a00000-0000-7000-8000-000000000001", exportedAt: "2026-12-02T00:00:00.000Z" });
  });

  test("an export of an imported session says where it came from, and imports again the same", () => {
    const once = imported(roundTrip(exported()));
    const again = buildExport({ state: once, denied: new Set() }, { exportedAt: NOW, shiro: "1.2.3" });
    expect(again.session.importedFrom?.id).toBe("01a00000-0000-7000-8000-000000000001");
    expect(imported(roundTrip(again)).messages).toEqual(once.messages);
  });

  test("a history no run could have made is refused, saying which message", () => {
    const refused = (change: (doc: SessionExport) => void) => {
      const doc = exported();
      change(doc);
      const plan = importEvents(doc, NOW);
      return plan.ok ? "imported" : plan.reason;
    };
    const results = (doc: SessionExport) => {
      const tool = doc.messages[2]!;
      if (tool.role !== "tool") throw new Error("no results");
      return tool.results;
    };
    expect(refused((d) => (results(d)[0]!.callId = "nobody"))).toBe("the imported history is impossible: message 3 holds a result for nobody, which the answer before it did not call");
    expect(refused((d) => results(d).push({ ...results(d)[0]! }))).toBe("the imported history is impossible: message 3 holds a second result for c1");
    expect(refused((d) => d.messages.splice(1, 1))).toBe("the imported history is impossible: message 2 holds tool results, but no answer with calls comes right before it");
    expect(refused((d) => d.messages.push(d.messages[1]!, d.messages[2]!))).toBe("the imported history is impossible: message 10 uses the call id c1 a second time");
    expect(refused(() => {})).toBe("imported");
  });
});

describe("parseExport: a file's text → an export, or what it is instead", () => {
  const text = JSON.stringify(exported());
  test("each refusal in words that follow '<file> is'", () => {
    const reason = (t: string) => {
      const parsed = parseExport(t);
      return parsed.ok ? "ok" : parsed.reason;
    };
    expect(reason(text)).toBe("ok");
    expect(reason(text.slice(0, 100))).toStartWith("not JSON (");
    expect(reason("[1, 2]")).toBe('not a shiro session export (it has no "format": "shiro-session")');
    expect(reason(JSON.stringify({ ...JSON.parse(text), version: 3 }))).toBe("a version 3 export; this shiro reads version 1 (a newer shiro wrote it: update this one)");
    expect(reason(JSON.stringify({ ...JSON.parse(text), version: "1" }))).toBe('a version "1" export; this shiro reads version 1');
    expect(reason(JSON.stringify({ ...JSON.parse(text), messages: [{ role: "system", text: "x" }] }))).toStartWith("not a valid version 1 export (messages.0.role: ");
    expect(reason(JSON.stringify({ ...JSON.parse(text), todos: undefined }))).toStartWith("not a valid version 1 export (todos: ");
  });

  test("fields it does not know are passed over: a later shiro may add some within version 1", () => {
    const doc = JSON.parse(text);
    doc.extra = { note: "from a later shiro" };
    doc.messages[0].mood = "hopeful";
    const parsed = parseExport(JSON.stringify(doc));
    expect(parsed.ok && parsed.doc).toEqual(roundTrip(exported()));
  });
});
