import type { AgentMode } from "../session/agent-mode.ts";
import type { ReplCommand } from "./repl-command.ts";

const SAID: Record<AgentMode, string> = {
  plan: "plan mode on: only the tools that read are offered, and commands run read-only (/plan again leaves it)",
  default: "plan mode off: every tool is offered again",
};
const WANTED: Record<string, AgentMode> = { on: "plan", off: "default" };

/** `/plan`: the agent plans (reads, thinks, proposes) until it is toggled off or a plan is accepted; the mode is logged, so `-c` goes on in it. */
export const planCommand: ReplCommand = {
  name: "plan",
  args: "[on | off]",
  summary: "plan first: only read, think and propose (toggles; shown under the prompt)",
  run: async (ctx, arg) => {
    const agent = ctx.current.agent;
    const wanted = arg === "" ? (agent.mode === "plan" ? "default" : "plan") : WANTED[arg.toLowerCase()];
    if (!wanted) return ctx.print(`usage: /plan [on | off], not "${arg}"`);
    agent.setMode(wanted);
    ctx.print(SAID[wanted]);
  },
};
