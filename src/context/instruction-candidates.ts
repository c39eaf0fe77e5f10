import { join } from "node:path";

/**
 * The files a folder's instructions may be in, in order of preference: shiro's `AGENTS.md`, else
 * Claude Code's `CLAUDE.md` (or `.claude/CLAUDE.md`), so a project set up for it is understood as it is.
 * The first that exists is the folder's: an AGENTS.md beside a CLAUDE.md wins, whole.
 */
export const instructionCandidates = (dir: string): string[] => [join(dir, "AGENTS.md"), join(dir, "CLAUDE.md"), join(dir, ".claude", "CLAUDE.md")];
