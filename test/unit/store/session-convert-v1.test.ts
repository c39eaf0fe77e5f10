import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eventsFromV1 } from "../../../src/store/convert-v1.ts";
import { reduceSession } from "../../../src/session/reduce-session.ts";
import { parseSchema1File } from "../../../src/store/schema1-file.ts";

// A session as shiro 0.1.0 wrote it (see test/fixtures/sessions/README.md).
const path = join(import.meta.dir, "..", "..", "fixtures", "sessions", "schema1-two-turns.json");

test("a schema-1 session converts to events that reduce to the same history, call log, task list and model", () => {
  const parsed = parseSchema1File(readFileSync(path, "utf8"), path);
  if (!parsed.ok) throw new Error(parsed.message);
  const v1 = parsed.value;
  const state = reduceSession(eventsFromV1(v1));
  expect(state.id).toBe(v1.id);
  expect(state.cwd).toBe(v1.cwd);
  expect(state.model).toBe(v1.model);
  expect(state.messages).toEqual(v1.messages);
  expect(state.callLog).toEqual(v1.callLog);
  expect(state.notebook).toEqual(v1.notebook);
  expect(state.answered).toBe(true);
});

test("an answer with no call on record, an errored call and a call that died in flight are all kept", () => {
  const parsed = parseSchema1File(readFileSync(path, "utf8"), path);
  if (!parsed.ok) throw new Error(parsed.message);
  const v1 = structuredClone(parsed.value);
  // Drop the first call's record: its answer must still be in the history.
  const [first, ...rest] = v1.callLog.calls;
  v1.callLog.calls = [{ ...first!, messageCount: 1, response: { status: "error", error: "429" } }, ...rest, { ...rest.at(-1)!, messageCount: v1.messages.length, response: undefined }];
  const state = reduceSession(eventsFromV1(v1));
  expect(state.messages).toEqual(v1.messages);
  expect(state.callLog.calls.at(-1)!.response).toBeUndefined();
  expect(state.callLog.calls.length).toBe(v1.callLog.calls.length + 1);
});
