/**
 * `--sandbox` / config `sandbox`: the most a command may do. `read-only` — nothing it does can write
 * outside a private temp folder; `workspace-write` — the project folder too; `off` — no sandbox.
 */
export type SandboxMode = "read-only" | "workspace-write" | "off";
export const SANDBOX_MODES: readonly SandboxMode[] = ["read-only", "workspace-write", "off"];

import type { SandboxLevel } from "../session/sandbox-level.ts";

export type { SandboxLevel };

export const capLevel = (level: SandboxLevel, mode: SandboxMode): SandboxLevel => (mode === "read-only" ? "read-only" : level);

/** Which commands get the network: `on` every one (`--network`), `approved` those a person approved, `off` none (`--no-network`). */
export type NetworkMode = "on" | "approved" | "off";
