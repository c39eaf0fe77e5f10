import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { callsOf, recordCall, recordResponse } from "../../src/store/call-log.ts";
import { createSessionStore, type SessionStore } from "../../src/store/session-store.ts";
import { everyKind } from "../support/session-fixtures.ts";

const instructions = `You are shiro, a coding agent.\n${"Follow the rules of the project carefully. ".repeat(700)}`; // ~30 KB
const tools = [{ type: "function", name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } }, strict: true }];
const params = { stream: true, store: false, reasoning: { effort: "medium", summary: "auto" }, include: ["reasoning.encrypted_content"] };

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "shiro-calllog-"));
  store = createSessionStore(join(root, "sessions"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe("call log", () => {
  test("1,000 calls with the same prompt store it once: the file grows by the call records only", async () => {
    const s = store.create({ cwd: "/p", model: "gpt-5" });
    s.messages.push({ role: "user", text: "go" });
    for (let i = 0; i < 1000; i++) {
      recordCall(s, { model: "gpt-5", instructions, tools, params, messageCount: 1 });
      recordResponse(s, { status: "completed", responseId: `resp_${i}`, usage: { inputTokens: 9000, cachedTokens: 8000, outputTokens: 50, reasoningTokens: 10 } });
    }
    await store.save(s);
    const path = join(store.dir, `${s.id}.json`);
    const text = readFileSync(path, "utf8");
    expect(occurrences(text, "Follow the rules of the project carefully.")).toBe(700); // one copy of the prompt
    expect(statSync(path).size).toBeLessThan(instructions.length + 1000 * 400); // 1,000 copies would be 30 MB
  });

  test("a changed prompt or model records a new snapshot; every call gets back its own instructions, tools and messages", async () => {
    const s = store.create({ cwd: "/p", model: "gpt-5" });
    s.messages.push(...everyKind());
    recordCall(s, { model: "gpt-5", instructions, tools, params, messageCount: 1 });
    recordCall(s, { model: "gpt-5", instructions, tools, params, messageCount: 3 });
    const withSkill = `${instructions}\n# Skill: release notes`;
    recordCall(s, { model: "gpt-5-mini", instructions: withSkill, tools, params: { ...params, reasoning: { effort: "low" } }, messageCount: 6, harder: true });
    recordResponse(s, { status: "error", error: "429 rate limited" });
    await store.save(s);

    const loaded = await store.load(s.id);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(Object.keys(loaded.session.callLog.snapshots)).toHaveLength(2);
    const calls = callsOf(loaded.session);
    expect(calls.map((c) => [c.step, c.model, c.messageCount, c.messages.length, c.sameSnapshotAs, c.harder])).toEqual([
      [1, "gpt-5", 1, 1, undefined, false],
      [2, "gpt-5", 3, 3, 1, false],
      [3, "gpt-5-mini", 6, 6, undefined, true],
    ]);
    expect(calls[2]!.instructions).toBe(withSkill);
    expect(calls[0]!.instructions).toBe(instructions);
    expect(calls[1]!.tools).toEqual(tools);
    expect(calls[2]!.params).toEqual({ ...params, reasoning: { effort: "low" } });
    expect(calls[1]!.messages).toEqual(everyKind().slice(0, 3));
    expect(calls[0]!.response).toBeUndefined(); // died before its response was recorded
    expect(calls[2]!.response).toEqual({ status: "error", error: "429 rate limited" });
  });

  test("a call pointing at a snapshot missing from the file makes the file corrupt, not a wrong rebuild", async () => {
    const s = store.create({ cwd: "/p", model: "gpt-5" });
    recordCall(s, { model: "gpt-5", instructions, tools, params, messageCount: 0 });
    s.callLog.snapshots = {};
    await store.save(s);
    const loaded = await store.load(s.id);
    expect(loaded.ok ? "" : loaded.error.message).toContain("prompt snapshot that is not in the file");
  });
});
