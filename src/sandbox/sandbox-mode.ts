/**
 * `--sandbox` / config `sandbox`: the most a command may do. `read-only` — nothing it does can write
 * outside a private temp folder; `workspace-write` — the project folder too; `off` — no sandbox.
 */
export type SandboxMode = "read-only" | "workspace-write" | "off";
export const SANDBOX_MODES: readonly SandboxMode[] = ["read-only", "workspace-write", "off"];

/** How one command runs: what its approval earned, never above the mode in force. */
export type SandboxLevel = "read-only" | "workspace-write";

export const capLevel = (level: SandboxLevel, mode: SandboxMode): SandboxLevel => (mode === "read-only" ? "read-only" : level);
