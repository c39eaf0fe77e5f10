/** How far one command may reach: what its approval earned (the sandbox decides what each means). */
export type SandboxLevel = "read-only" | "workspace-write";
