import type { AgentMode } from "../session/agent-mode.ts";

/** What the status line says of the agent's mode: a word while work runs, a line under the idle prompt. None in the default mode. */
export type Badge = { busy: string; idle: string };

export const modeBadge = (mode: AgentMode): Badge | undefined =>
  mode === "plan" ? { busy: "plan mode", idle: "plan mode · only tools that read, commands read-only · /plan leaves it" } : undefined;
