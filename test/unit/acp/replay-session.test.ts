import { describe, expect, test } from "bun:test";
import { replaySession } from "../../../src/acp/replay-session.ts";
import type { Message } from "../../../src/session/messages.ts";

const ROOT = "/work/project";

describe("a session's history replayed (pure)", () => {
  test("prompts, images, thoughts, answers and each call with its final status; the task list last", () => {
    const messages: Message[] = [
      { role: "user", text: "fix the test", images: [{ mediaType: "image/png", data: "iVBOR" }] },
      {
        role: "assistant",
        model: "gpt-5",
        parts: [
          { type: "reasoning", summary: ["**Look**", "first"] },
          { type: "tool-call", callId: "a", name: "read_file", arguments: '{"path":"t.ts"}' },
          { type: "tool-call", callId: "b", name: "bash", arguments: '{"command":"npm test"}' },
          { type: "tool-call", callId: "c", name: "bash", arguments: '{"command":"sleep 9"}' },
        ],
      },
      { role: "tool", results: [{ callId: "a", output: "1\tok" }, { callId: "b", output: "1 failing", isError: true }] },
      { role: "assistant", model: "gpt-5", parts: [{ type: "text", text: "Done." }] },
    ];
    const updates = replaySession(messages, [{ content: "fix", status: "pending" }], ROOT);
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call", "tool_call", "agent_message_chunk", "plan"]);
    expect(updates[1]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "image", data: "iVBOR", mimeType: "image/png" } });
    expect(updates[2]).toEqual({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "**Look**\n\nfirst" } });
    expect(updates.slice(3, 6).map((u) => [(u as { title: string }).title, (u as { status: string }).status])).toEqual([
      ["read_file t.ts", "completed"],
      ["bash: npm test", "failed"],
      ["bash: sleep 9", "failed"],
    ]);
  });
});
