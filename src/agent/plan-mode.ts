import type { AnyTool } from "../tools/tool.ts";
import type { Prompt } from "./load-prompt.ts";

// The meta tools that change nothing outside the session: the task list, a skill's text, a child agent (which plans too),
// and reading or ending a background job (started read-only). The notes' tools write shiro's memory, so they wait, as under --ephemeral.
const PLANNING_META = new Set(["todo_write", "skill", "task", "bash_output", "bash_kill"]);

/**
 * Whether plan mode offers `tool`: those that only read, commands (the gate runs them read-only), and
 * the meta tools above. An MCP tool is never offered: its server's word that it only reads is no proof.
 */
export const offeredInPlan = (tool: AnyTool): boolean => tool.kind === "read" || tool.kind === "exec" || (tool.kind === "meta" && PLANNING_META.has(tool.name));

/** Told after the rest of the instructions while the agent plans. */
export const PLAN_INSTRUCTIONS = `# Plan mode

You are in plan mode: the person wants a plan before anything changes. Read, search and think; run
commands only to look (they run in a read-only sandbox, so nothing they write is kept). No tool that
writes is offered: do not try to change files. End your answer with the plan — what to change, where
and why, in order, and any open question — and record its steps with todo_write. The person will
accept it (then every tool is offered again and you carry it out) or ask you to refine it.`;

/** The prompt of an agent that plans: its tools plan mode offers, and the instructions saying it plans. */
export function planPrompt(prompt: Prompt): Prompt {
  const tools = prompt.tools.filter(offeredInPlan);
  const names = new Set(tools.map((tool) => tool.name));
  return {
    ...prompt,
    instructions: `${prompt.instructions}\n\n${PLAN_INSTRUCTIONS}`,
    tools,
    toolSchemas: prompt.toolSchemas.filter((schema) => names.has(schema.name)),
  };
}

/** The prompt that carries out an accepted plan: the agent has just left plan mode. */
export const PLAN_ACCEPTED = "The plan is accepted, and plan mode is off: every tool is offered again. Carry out the plan.";
