import { describe, expect, test } from "bun:test";
import { snapshotKey, type RecordedCall } from "../../src/store/call-log.ts";
import { InspectError, inspectSession } from "../../src/store/inspect.ts";
import { everyKind } from "../support/session-fixtures.ts";

// Stands in for src/wire/build-request.ts (written in parallel); inspect only needs "call → body".
const rebuild = (c: RecordedCall) => ({
  model: c.model,
  instructions: c.instructions,
  tools: c.tools,
  input: c.messages.map((m) => m.role),
  ...c.params,
});

/** Two calls sharing one prompt: the first answered, the second with no outcome on record. */
function session() {
  const long = `SYSTEM ${"rule ".repeat(200)}END-OF-PROMPT`;
  const key = snapshotKey(long, []);
  const call = (messageCount: number) => ({ model: "gpt-5", params: { store: false }, messageCount, snapshot: key });
  return {
    id: "s1",
    messages: everyKind(),
    callLog: {
      snapshots: { [key]: { instructions: long, tools: [] } },
      calls: [
        { ...call(1), response: { status: "completed" as const, responseId: "resp_1", usage: { inputTokens: 1200, cachedTokens: 1000, outputTokens: 300, reasoningTokens: 120 } } },
        call(3),
      ],
    },
  };
}

describe("inspect", () => {
  test("prints each call's rebuilt body, clipped, with its response summary", () => {
    const out = inspectSession(session(), { full: false, rebuild });
    expect(out).toContain("── call 1 of 2 · gpt-5 · built from 1 message · new instructions+tools");
    expect(out).toContain("── call 2 of 2 · gpt-5 · built from 3 messages · instructions+tools as call 1");
    expect(out).toContain('"input": [\n    "user",\n    "assistant",\n    "tool"\n  ]');
    expect(out).toContain("… [+");
    expect(out).not.toContain("END-OF-PROMPT");
    expect(out).toContain("response: completed · resp_1 · 1,200 in (1,000 cached) · 300 out (120 reasoning)");
    expect(out).toContain("response: none recorded");
  });

  test("--full prints strings whole; a step selects one call; a bad step is a clear error", () => {
    const s = session();
    const one = inspectSession(s, { step: 2, full: true, rebuild });
    expect(one).toContain("END-OF-PROMPT");
    expect(one).not.toContain("call 1 of 2");
    expect(() => inspectSession(s, { step: 3, full: false, rebuild })).toThrow(new InspectError(3, 2));
    expect(new InspectError(3, 2).message).toBe("no step 3: the session has steps 1–2");
  });

  test("one call and one message read as singular: '1 model call', 'built from 1 message', 'only step 1'", () => {
    expect(new InspectError(2, 1).message).toBe("no step 2: the session has only step 1");
    const out = inspectSession(session(), { step: 1, full: false, rebuild });
    expect(out).toContain("built from 1 message ·");
  });
});
