import { describe, expect, test } from "bun:test";
import { stopReason } from "../../../src/acp/stop-reason.ts";
import type { Message } from "../../../src/session/messages.ts";

describe("why a turn stopped, as ACP says it (pure)", () => {
  const cut = (incomplete: string): Message[] => [{ role: "assistant", model: "gpt-5", parts: [], incomplete }];
  test("each end status", () => {
    expect(stopReason("done", [])).toBe("end_turn");
    expect(stopReason("max-steps", [])).toBe("max_turn_requests");
    expect(stopReason("max-cost", [])).toBe("max_turn_requests");
    expect(stopReason("aborted", [])).toBe("cancelled");
    expect(stopReason("incomplete", cut("max_output_tokens"))).toBe("max_tokens");
    expect(stopReason("incomplete", cut("content_filter"))).toBe("refusal");
    expect(stopReason("error", [])).toBeUndefined();
  });
});
