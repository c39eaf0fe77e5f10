/**
 * How an agent works: `default` — with every tool it has; `plan` — reading and proposing only (no tool
 * that writes is offered, commands run read-only). A session's log says which is in force.
 */
export const AGENT_MODES = ["default", "plan"] as const;
export type AgentMode = (typeof AGENT_MODES)[number];
