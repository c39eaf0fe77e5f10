import type pc from "picocolors";
import type { AgentEvent } from "../loop/events.ts";
import { plural } from "../text/plural.ts";
import { callSubject, resultMark, resultSummary } from "./tool-line.ts";

type Colors = ReturnType<typeof pc.createColors>;

/**
 * A child agent's progress as lines for a person, indented under the call that started it: its
 * start, its tool calls and their outcomes, its warnings and errors, its end. Its text is not shown
 * (its answer comes back as the call's result); a grandchild's lines are indented once more.
 */
export function childLines(event: AgentEvent, c: Colors, depth = 1): string[] {
  const pad = "  ".repeat(depth);
  switch (event.type) {
    case "agent-start":
      return [`${pad}${c.magenta("⤷")} ${c.bold(event.agent)} ${c.dim(event.description)}`];
    case "agent-end":
      return [`${pad}${c.dim(`${event.status === "done" ? "✓" : "!"} ${plural(event.steps, "step")}, ${event.status}`)}`];
    case "child":
      return inner(event.event, c, depth);
    default:
      return [];
  }
}

function inner(event: AgentEvent, c: Colors, depth: number): string[] {
  const pad = `${"  ".repeat(depth)}${c.dim("│")} `;
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
      return childLines(event, c, depth + 1);
    default:
      return [];
  }
}
