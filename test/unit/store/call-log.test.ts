import { expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { callsOf, snapshotKey } from "../../../src/store/call-log.ts";
import { createSessionStore } from "../../../src/store/session-store.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";
import { tempDir } from "../../support/run-shiro.ts";

const instructions = `You are shiro, a coding agent.\n${"Follow the rules of the project carefully. ".repeat(700)}`; // ~30 KB
const tools = [{ type: "function", name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } }, strict: true }];
const params = { stream: true, store: false, reasoning: { effort: "medium", summary: "auto" }, include: ["reasoning.encrypted_content"] };
const at = "2026-12-01T10:00:00.000Z";
const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

/** The events of a call with prompt `instructions`, defining the prompt first when the log lacks it. */
function callEvents(state: { callLog: { calls: unknown[]; snapshots: Record<string, unknown> }; messages: unknown[] }, model: string, text: string, extra: object = {}): SessionEvent[] {
  const key = snapshotKey(text, tools);
  return [
    ...(Object.hasOwn(state.callLog.snapshots, key) ? [] : [{ type: "prompt" as const, key, instructions: text, tools }]),
    { type: "call", step: state.callLog.calls.length + 1, model, params, messages: state.messages.length, prompt: key, at, ...extra },
  ];
}

test("1,000 calls with the same prompt keep it once: the log grows by the call records only", async () => {
  const store = createSessionStore(join(tempDir("calllog"), "sessions"));
  const s = await store.create({ cwd: "/p", model: "gpt-5" });
  s.append({ type: "user", text: "go", at });
  for (let i = 0; i < 1000; i++) {
    s.append(...callEvents(s.state, "gpt-5", instructions));
    s.append({ type: "response", step: i + 1, status: "error", error: "429 rate limited", at });
  }
  s.close();
  const text = readFileSync(s.path, "utf8");
  expect(occurrences(text, "Follow the rules of the project carefully.")).toBe(700); // one copy of the prompt
  expect(statSync(s.path).size).toBeLessThan(instructions.length + 1000 * 400); // 1,000 copies would be 30 MB
});

test("a changed prompt or model defines a new prompt; every call gets back its own instructions, tools, messages and outcome", async () => {
  const store = createSessionStore(join(tempDir("calllog"), "sessions"));
  const s = await store.create({ cwd: "/p", model: "gpt-5" });
  s.append({ type: "user", text: "go", at });
  s.append(...callEvents(s.state, "gpt-5", instructions));
  s.append({ type: "response", step: 1, status: "completed", message: { role: "assistant", model: "gpt-5", parts: [{ type: "text", text: "ok" }] }, at });
  s.append({ type: "user", text: "again", at });
  s.append(...callEvents(s.state, "gpt-5", instructions));
  s.append({ type: "response", step: 2, status: "error", error: "429 rate limited", at });
  const withSkill = `${instructions}\n# Skill: release notes`;
  s.append(...callEvents(s.state, "gpt-5-mini", withSkill, { harder: true }));
  s.close();

  const read = await store.read(s.id);
  if (!read.ok) throw new Error(read.message);
  expect(Object.keys(read.state.callLog.snapshots)).toHaveLength(2);
  const calls = callsOf(read.state);
  expect(calls.map((c) => [c.step, c.model, c.messageCount, c.sameSnapshotAs, c.harder, c.response?.status])).toEqual([
    [1, "gpt-5", 1, undefined, false, "completed"],
    [2, "gpt-5", 3, 1, false, "error"],
    [3, "gpt-5-mini", 3, undefined, true, undefined], // died before its response was logged
  ]);
  expect(calls[2]!.instructions).toBe(withSkill);
  expect(calls[1]!.tools).toEqual(tools);
  expect(calls[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(calls[1]!.response).toEqual({ status: "error", error: "429 rate limited" });
});
