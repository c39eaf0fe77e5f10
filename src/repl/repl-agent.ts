import type pc from "picocolors";
import type { Config, Flags } from "../services/settings.ts";
import { startMainAgent } from "../agent/start-main-agent.ts";
import type { CurrentAgent } from "../agent/current-agent.ts";
import { plural } from "../text/plural.ts";
import { builtinNames } from "./commands.ts";
import type { createPersonQuestions } from "./person-questions.ts";
import type { WorkSlot } from "./work-slot.ts";

type Start = {
  flags: Flags;
  config: Config & { apiKey: string };
  cwd: string;
  questions: ReturnType<typeof createPersonQuestions>;
  slot: WorkSlot;
  print: (text: string) => void;
  warn: (line: string) => void;
  c: ReturnType<typeof pc.createColors>;
};

/** The agent the REPL drives, wired to the person: their approvals, a project's hooks, servers arriving, Ctrl-C for a command. */
export function startReplAgent(s: Start): Promise<CurrentAgent> {
  const arrived = new Set<string>();
  return startMainAgent({
    flags: s.flags,
    config: s.config,
    cwd: s.cwd,
    warn: s.warn,
    builtinCommands: builtinNames(),
    ask: s.questions.approve,
    approveHooks: s.questions.hooks,
    // A project's agent is read and approved, as its commands are, before the model may start it.
    confirm: async (lines, question) => {
      for (const line of lines) s.print(line);
      return s.questions.confirm(question);
    },
    // Servers start in the background while the person types: each says once that it is up, a failure in one line.
    reportMcp: (e, line) => {
      if (line !== undefined) return s.warn(line);
      if (e.status !== "connected" || arrived.has(e.server)) return;
      arrived.add(e.server);
      s.print(s.c.dim(`· MCP server "${e.server}" is up: ${plural(e.tools ?? 0, "tool")}`));
    },
    // Each tool call gets its own: Ctrl-C stops the running command, not the turn.
    interruptSignal: () => {
      const interrupt = new AbortController();
      if (s.slot.turn) s.slot.turn.interrupt = interrupt;
      return interrupt.signal;
    },
  });
}
