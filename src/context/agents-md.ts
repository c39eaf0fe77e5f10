import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import { instructionCandidates } from "./instruction-candidates.ts";

export const AGENTS_MD_CAP = 32 * 1024;

export type AgentsMd = {
  text: string;
  /** The files read, outer first. */
  files: string[];
  /** The same, as the instructions name them (`~shiro/AGENTS.md`, `../CLAUDE.md`). */
  labels: string[];
  truncated: boolean;
  /** Files that exist but could not be read (a folder named AGENTS.md, no permission): `path (why)`. */
  skipped: string[];
};

/**
 * The person's instructions: $SHIRO_HOME/AGENTS.md, then every AGENTS.md from the git root down to
 * the working folder (outer first, so the nearest file has the last word), capped at 32 KiB.
 *
 * Where a place has no AGENTS.md, Claude Code's file there is read instead, so a project set up for
 * it is understood as it is: a folder's `CLAUDE.md` (or `.claude/CLAUDE.md`), and for the person's
 * own, `~/.claude/CLAUDE.md`. An AGENTS.md beside it wins, whole: the two are usually the same
 * instructions, and shiro's own file is the one meant for it.
 *
 * `project: false` (`--no-project-instructions`): the person's own file only.
 */
export async function loadAgentsMd(home: string, cwd: string, opts: { userHome?: string; project?: boolean } = {}): Promise<AgentsMd> {
  const own = join(home, "AGENTS.md");
  const claudeOwn = join(opts.userHome ?? homedir(), ".claude", "CLAUDE.md");
  const folders = opts.project === false ? [] : foldersFromGitRoot(cwd);
  const places = [[own, claudeOwn], ...folders.map(instructionCandidates)];
  // Started in the home, its `.claude/CLAUDE.md` is both the person's and the folder's: read once.
  const found = [...new Set(places.flatMap((candidates) => candidates.find((f) => existsSync(f)) ?? []))];
  const files: string[] = [];
  const labels: string[] = [];
  const skipped: string[] = [];
  let text = "";
  let truncated = false;
  for (const file of found) {
    let body: string;
    try {
      body = (await Bun.file(file).text()).trim();
    } catch (err) {
      // One unreadable file must not stop the session; the person is told which one.
      skipped.push(`${file} (${(err as Error).message})`);
      continue;
    }
    files.push(file);
    const label = file === own ? "~shiro/AGENTS.md" : file === claudeOwn ? "~/.claude/CLAUDE.md" : relative(cwd, file);
    labels.push(label);
    text += `${text ? "\n\n" : ""}## ${label}\n\n${body}`;
  }
  const bytes = Buffer.from(text);
  if (bytes.length > AGENTS_MD_CAP) {
    truncated = true;
    text = `${bytes.subarray(0, AGENTS_MD_CAP).toString("utf8").replace(/\uFFFD$/, "")}\n\n[AGENTS.md content cut at 32 KiB]`;
  }
  return { text, files, labels, truncated, skipped };
}

function foldersFromGitRoot(cwd: string): string[] {
  const chain: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (existsSync(join(dir, ".git"))) return chain;
    if (dirname(dir) === dir) return [cwd]; // not in a git repository: only the working folder
  }
}
