import { z } from "zod";
import type { AgentEvent } from "../loop/events.ts";
import type { AgentMode } from "../session/agent-mode.ts";
import { emptyUsage } from "../session/messages.ts";
import type { InstructionFile } from "../session/reduce-session.ts";
import type { Services } from "../services/services.ts";
import type { AgentDefinition } from "../subagents/agent-definition.ts";
import { childTools } from "../subagents/agent-tools.ts";
import { defineTool, ToolError, type AnyTool, type ToolContext, type ToolOutput } from "../tools/tool.ts";
import type { Agent, AgentSpec } from "./agent.ts";
import { createChildReport } from "./child-report.ts";
import { createSlots } from "./slots.ts";
import type { TreeBudget } from "./tree-budget.ts";

/** The agent a `task` call is made by, as its children need it. */
export type TaskParent = {
  sessionId: () => string;
  model: () => string;
  /** Its mode now: a child works in it too, never looser than its parent. */
  mode: () => AgentMode;
  /** The root agent is 0; a child of it 1. */
  depth: number;
  tools: () => readonly AnyTool[];
  /** The subfolders' instruction files it has taken on: a child starts with them. */
  instructionFiles: () => readonly InstructionFile[];
  /** The current turn's, shared by the whole tree. */
  budget: () => TreeBudget;
  /** Makes a child from the same services (createAgent: passed in, as it makes this tool). */
  start: (spec: AgentSpec) => Promise<Agent>;
};

const schema = z.object({
  description: z.string().min(1).describe("3-6 words for the person"),
  prompt: z.string().min(1).describe("The whole job and what to report; it sees none of this chat"),
  agent: z.string().optional().describe("default general"),
});

// A model Claude Code names is no model of this endpoint: the child stays on its parent's.
const CLAUDE_MODEL = /^(claude\b|opus|sonnet|haiku)/i;

/**
 * `task`: hands one focused job to a child agent with a fresh context, its own session log and a
 * tool set no wider than its parent's; its answer, and a line of what it changed, is the result.
 * Several calls in one response run at once, up to `agents.maxParallel`.
 */
export function createTaskTool(services: Services, parent: TaskParent, agents: readonly AgentDefinition[]): AnyTool {
  const slots = createSlots(services.config.agents.maxParallel);
  const listed = agents.map((a) => `- ${a.name}: ${a.description}`).join("\n");
  return defineTool({
    name: "task",
    description: `Give one job to a child agent (fresh context, your tools or fewer) and get its answer; calls side by side run at once. Agents:\n${listed}`,
    schema,
    kind: "meta",
    delegates: true,
    subject: (args) => ({ action: `${args.agent ?? "general"}: ${args.description}` }),
    async run(args, ctx) {
      const agent = await services.agents.take(args.agent ?? "general");
      if ("refused" in agent) throw new ToolError(`${agent.refused}.`);
      const release = await slots.take();
      try {
        return await runChild(agent, args, ctx);
      } finally {
        release();
      }
    },
  });

  async function runChild(def: AgentDefinition, args: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolOutput> {
    const callId = ctx.callId ?? "";
    const depth = parent.depth + 1;
    if (def.model && CLAUDE_MODEL.test(def.model)) ctx.notice?.(`agent "${def.name}": model ${def.model} is Claude Code's; it runs on ${parent.model()}`);
    const model = def.model && !CLAUDE_MODEL.test(def.model) ? def.model : parent.model();
    const names = childTools(parent.tools().map((t) => t.name), def.tools, depth < services.config.agents.maxDepth);
    const session = await services.sessions.create({ cwd: services.cwd, model, parent: { id: parent.sessionId(), callId } });
    const agentId = session.state.id;
    const relay = (event: AgentEvent) => ctx.relay?.(event);
    const child = await parent.start({
      session,
      ...(def.instructions !== undefined ? { instructions: def.instructions } : {}),
      tools: (name) => names.has(name),
      mode: parent.mode(),
      parent: { sessionId: parent.sessionId(), callId, depth, budget: parent.budget(), label: def.name, instructions: parent.instructionFiles() },
    });
    const report = createChildReport(services.cwd, () => child.prompt.tools);
    relay({ type: "agent-start", agentId, parentCallId: callId, agent: def.name, description: args.description });
    try {
      for await (const event of child.runTurn(args.prompt, ctx.signal)) {
        report.see(event);
        relay({ type: "child", agentId, parentCallId: callId, event });
      }
    } finally {
      await child.close();
      const end = report.end;
      relay({ type: "agent-end", agentId, parentCallId: callId, status: end?.status ?? "aborted", steps: end?.steps ?? 0, usage: end?.usage ?? emptyUsage() });
    }
    return { output: report.output(def.name), isError: report.end?.status !== "done", child: { sessionId: agentId, agent: def.name } };
  }
}
