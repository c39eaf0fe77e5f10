import { expect, test } from "bun:test";
import { z } from "zod";
import { compileCheck } from "../../../src/session/compile-check.ts";
import { indexEntrySchema } from "../../../src/store/session-index.ts";
import { sessionEventSchema, type SessionEvent } from "../../../src/session/session-event.ts";
import { everyKind } from "../../support/session-fixtures.ts";
import { prng, randomHistory, type Rng } from "../../support/random-history.ts";

const isEvent = compileCheck(sessionEventSchema);
const at = "2026-12-01T10:00:00.000Z";

/** Events of every type, as a run writes them (messages from the fixtures and random histories). */
function events(rng: Rng): SessionEvent[] {
  const messages = [...everyKind(), ...randomHistory(rng, 8)];
  return [
    { type: "session", v: 2, id: "s", at, cwd: "/p", model: "gpt-5", ...(rng.chance(0.5) ? { forkedFrom: { id: "o", events: 3 } } : {}) },
    { type: "user", text: "hi", at },
    { type: "import", from: { id: "o", exportedAt: at }, messages, turns: [{ start: 0, at }], at },
    { type: "prompt", key: "k", instructions: "i", tools: [{ type: "function", name: "t", parameters: {} }] },
    { type: "call", step: 1, model: "gpt-5", params: { stream: true, reasoning: { summary: "auto" } }, messages: 1, prompt: "k", harder: true, limits: { threshold: 1, window: 2 }, trailer: "t", at },
    ...messages.map((message, i) => ({ type: "response" as const, step: i + 1, status: "completed" as const, message, usage: { inputTokens: 1, cachedTokens: 0, outputTokens: 1, reasoningTokens: 0 }, at })),
    { type: "response", step: 2, status: "error", error: "boom", at },
    { type: "verdict", callId: "c", allowed: false, sandbox: "read-only", reason: "no" },
    { type: "tool", callId: "c" },
    { type: "result", callId: "c", output: "o", isError: true, denied: true },
    { type: "compaction", summary: "s", at },
    { type: "todos", todos: [] },
    { type: "model", model: "o3" },
    { type: "window", model: "o3", tokens: 9000 },
  ];
}

/** One random change somewhere in a value: a key removed or added, a value replaced by another kind. */
function mutate(value: any, rng: Rng): void {
  const objects: any[] = [];
  const walk = (v: any) => {
    if (v && typeof v === "object") {
      objects.push(v);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  const target = rng.pick(objects);
  const keys = Object.keys(target);
  const key = Array.isArray(target) ? rng.int(0, target.length) : rng.chance(0.2) || keys.length === 0 ? "extra" : rng.pick(keys);
  if (rng.chance(0.2) && !Array.isArray(target)) delete target[key];
  else target[key] = rng.pick([null, -1, 0, 1.5, 2 ** 60, "x", "", true, [], {}, "completed", "gpt-5", undefined]);
}

test("the compiled check takes a value only when zod takes it unchanged, and takes every event shiro writes", () => {
  const problems: string[] = [];
  let rejected = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const rng = prng(seed);
    for (const event of events(rng)) {
      if (!isEvent(event)) problems.push(`seed ${seed}: ${event.type} as written is not taken`);
      const changed = structuredClone(event);
      mutate(changed, rng);
      const parsed = sessionEventSchema.safeParse(changed);
      if (isEvent(changed) && !(parsed.success && Bun.deepEquals(parsed.data, changed, true))) problems.push(`seed ${seed}: took ${JSON.stringify(changed).slice(0, 200)}`);
      if (!isEvent(changed)) rejected++;
    }
  }
  expect(problems).toEqual([]);
  expect(rejected).toBeGreaterThan(1_000);
});

test("what it does not compile is left to zod: a task list (its text is trimmed) is never taken as it is", () => {
  expect(isEvent({ type: "todos", todos: [{ content: "  write tests ", status: "pending" }] })).toBe(false);
  expect(sessionEventSchema.parse({ type: "todos", todos: [{ content: "  write tests ", status: "pending" }] })).toEqual({ type: "todos", todos: [{ content: "write tests", status: "pending" }] });
});

test("a listing entry as written is taken, its cost a number or null; anything else is zod's to judge", () => {
  const isEntry = compileCheck(indexEntrySchema);
  const usage = { inputTokens: 1, cachedTokens: 0, outputTokens: 1, reasoningTokens: 0 };
  const entry = { id: "s", cwd: "/p", model: "gpt-5", title: "t", createdAt: at, updatedAt: at, messageCount: 2, usage, costUsd: null, state: "answered", bytes: 10 };
  expect(isEntry(entry)).toBe(true);
  expect(isEntry({ ...entry, costUsd: 0.25 })).toBe(true);
  for (const costUsd of ["0.25", undefined]) {
    expect(isEntry({ ...entry, costUsd })).toBe(false);
    expect(indexEntrySchema.safeParse({ ...entry, costUsd }).success).toBe(false);
  }
});

test("an array or a record with checks of its own is never taken by the compiled check", () => {
  const tags = z.object({ tags: z.array(z.string()).min(1) });
  expect(compileCheck(tags)({ tags: [] })).toBe(false);
  expect(tags.safeParse({ tags: [] }).success).toBe(false);
  expect(compileCheck(z.record(z.string(), z.number()).refine((r) => Object.keys(r).length > 0))({})).toBe(false);
  expect(compileCheck(z.array(z.string()))([])).toBe(true);
});
