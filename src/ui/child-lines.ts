import type pc from "picocolors";
import type { AgentEvent } from "../loop/events.ts";
import { plural } from "../text/plural.ts";
import { callSubject, resultMark, resultSummary } from "./tool-line.ts";

type Colors = ReturnType<typeof pc.createColors>;

/**
 * Child agents' progress as lines for a person, indented under the call that started them: each
 * one's start, tool calls and outcomes, warnings and errors, end. Their text is not shown (an answer
 * comes back as the call's result); a grandchild's lines are indented once more. While several run
 * at once their lines interleave, so each then carries its child's description.
 */
export function createChildLines(c: Colors): (event: AgentEvent) => string[] {
  const running = new Map<string, string>();
  const lines = (event: AgentEvent, depth: number): string[] => {
    const pad = "  ".repeat(depth);
    switch (event.type) {
      case "agent-start":
        running.set(event.agentId, event.description);
        return [`${pad}${c.magenta("⤷")} ${c.bold(event.agent)} ${c.dim(event.description)}`];
      case "agent-end": {
        const label = labelOf(event.agentId);
        running.delete(event.agentId);
        return [`${pad}${c.dim(`${event.status === "done" ? "✓" : "!"} ${label}${plural(event.steps, "step")}, ${event.status}`)}`];
      }
      case "child":
        return inner(event.event, `${pad}${c.dim("│")} ${c.dim(labelOf(event.agentId))}`, depth);
      default:
        return [];
    }
  };
  const labelOf = (agentId: string) => (running.size > 1 ? `${running.get(agentId) ?? agentId}: ` : "");
  const inner = (event: AgentEvent, pad: string, depth: number): string[] => {
    switch (event.type) {
      case "tool-call":
        return [`${pad}${c.cyan("→")} ${c.bold(event.name)} ${callSubject(event.arguments)}`];
      case "tool-result":
        return [`${pad}  ${resultMark(event, c)} ${resultSummary(event)}`];
      case "notice":
        return [`${pad}${event.level === "warn" ? c.yellow("!") : c.dim("·")} ${event.text}`];
      case "error":
        return [`${pad}${c.red("error:")} ${event.error.message}`];
      case "agent-start":
      case "agent-end":
      case "child":
        return lines(event, depth + 1);
      default:
        return [];
    }
  };
  return (event) => lines(event, 1);
}
