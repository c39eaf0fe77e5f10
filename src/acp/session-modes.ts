/**
 * The modes an editor may switch a session between (`session/set_mode`), each as the flag that makes
 * it on the command line: `yolo` is the services' (asked at each call), `plan` the agent's
 * (`agent.setMode`, logged in its session).
 */
export const SESSION_MODES = [
  { id: "default", name: "Default", description: "Reads freely; asks before a write or a command no rule allows" },
  { id: "plan", name: "Plan", description: "Reads, thinks and proposes (as --plan): only the tools that read, commands read-only; nothing changes until you switch" },
  { id: "yolo", name: "Yolo", description: "Approves what would ask, inside the sandbox (as --yolo): never a secret, a deny rule or the network" },
] as const;

export type ModeId = (typeof SESSION_MODES)[number]["id"];

export const isModeId = (id: string): id is ModeId => SESSION_MODES.some((mode) => mode.id === id);

/** ACP's `modes` of a session: the current one and those available. */
export const modeState = (current: ModeId) => ({ currentModeId: current, availableModes: SESSION_MODES.map((mode) => ({ ...mode })) });
