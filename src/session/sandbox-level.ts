/** How far one command may reach: what its approval earned (the sandbox decides what each means). */
export type SandboxLevel = "read-only" | "workspace-write";

/** What a command's approval earned: how far it may write, and whether a person (not `--yolo`) approved it. */
export type Grant = { level: SandboxLevel; byPerson: boolean };
