import { relative } from "node:path";
import type { AgentEvent, EndStatus } from "../loop/events.ts";
import { textOf, type Usage } from "../session/messages.ts";
import { formatCount } from "../text/format-count.ts";
import { plural } from "../text/plural.ts";
import type { AnyTool } from "../tools/tool.ts";

/** What a child's run came to, gathered from its events as they pass. */
export function createChildReport(root: string, tools: () => readonly AnyTool[]) {
  const calls = new Map<string, { name: string; arguments: string }>();
  const changed = new Set<string>();
  let commands = 0;
  let answer = "";
  let end: { status: EndStatus; steps: number; usage: Usage } | undefined;
  let error: string | undefined;

  /** The files a write call names, as its tool's subject says (an MCP tool's are not known). */
  const filesOf = (name: string, args: string) => {
    const tool = tools().find((t) => t.name === name);
    if (tool?.kind !== "write") return [];
    try {
      return tool.subject(tool.schema.parse(JSON.parse(args))).paths ?? [];
    } catch {
      return [];
    }
  };

  return {
    see(event: AgentEvent): void {
      if (event.type === "tool-call") calls.set(event.callId, event);
      else if (event.type === "tool-result" && !event.isError && !event.denied) {
        const call = calls.get(event.callId);
        if (call && tools().find((t) => t.name === call.name)?.kind === "exec") commands++;
        for (const file of call ? filesOf(call.name, call.arguments) : []) changed.add(relative(root, file) || file);
      } else if (event.type === "message" && event.message.role === "assistant") answer = textOf(event.message) || answer;
      else if (event.type === "error") error = event.error.message;
      else if (event.type === "end") end = event;
    },
    get end() {
      return end;
    },
    /** The call's output: the child's answer, then one line of what it did. */
    output(agent: string): string {
      const status = end?.status ?? "aborted";
      const files = [...changed].sort();
      const did = [
        files.length ? `changed ${files.length > 5 ? `${files.slice(0, 5).join(", ")} and ${files.length - 5} more` : files.join(", ")}` : "changed no file through its file tools",
        ...(commands ? [`ran ${plural(commands, "command")}`] : []),
        `${plural(end?.steps ?? 0, "step")}, ${formatCount((end?.usage.inputTokens ?? 0) + (end?.usage.outputTokens ?? 0))} tokens`,
      ].join("; ");
      const head = status === "done" ? answer.trim() : `The ${agent} agent stopped (${status})${error ? `: ${error}` : ""}.${answer.trim() ? `\nWhat it had said:\n${answer.trim()}` : ""}`;
      return `${head || "(the agent gave no answer)"}\n\n[${agent} agent: ${did}]`;
    },
  };
}
