import { expect, test } from "bun:test";
import pc from "picocolors";
import type { AgentEvent } from "../../../src/loop/events.ts";
import { createChildLines } from "../../../src/ui/child-lines.ts";

const usage = { inputTokens: 1, cachedTokens: 0, outputTokens: 1, reasoningTokens: 0 };
const call = (agentId: string, path: string): AgentEvent => ({ type: "child", agentId, parentCallId: "t", event: { type: "tool-call", callId: `c-${agentId}`, name: "read_file", arguments: JSON.stringify({ path }) } });

test("one child: its lines indented under the call; several at once: each line names its child", () => {
  const lines = createChildLines(pc.createColors(false));
  const shown = (events: AgentEvent[]) => events.flatMap(lines);
  expect(shown([{ type: "agent-start", agentId: "a", parentCallId: "t", agent: "general", description: "read alpha" }, call("a", "alpha.ts")])).toEqual(["  ⤷ general read alpha", "  │ → read_file alpha.ts"]);
  expect(shown([{ type: "agent-start", agentId: "b", parentCallId: "t", agent: "reviewer", description: "review beta" }, call("a", "alpha.ts"), call("b", "beta.ts")])).toEqual([
    "  ⤷ reviewer review beta",
    "  │ read alpha: → read_file alpha.ts",
    "  │ review beta: → read_file beta.ts",
  ]);
  expect(shown([{ type: "agent-end", agentId: "a", parentCallId: "t", status: "done", steps: 2, usage }, call("b", "beta.ts")])).toEqual(["  ✓ read alpha: 2 steps, done", "  │ → read_file beta.ts"]);
  // A grandchild's lines sit one step further in.
  expect(shown([{ type: "child", agentId: "b", parentCallId: "t", event: { type: "agent-start", agentId: "g", parentCallId: "c-b", agent: "general", description: "dig" } }])).toEqual(["    ⤷ general dig"]);
});
