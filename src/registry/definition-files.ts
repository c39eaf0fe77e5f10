import { readdir, realpath } from "node:fs/promises";
import { join, sep } from "node:path";
import { diskEnv, resolvePath } from "../guard/resolve-path.ts";
import { isSecret } from "../guard/secret-path.ts";
import { definitionHash } from "../store/approvals.ts";
import { LIMITS } from "./limits.ts";

/** Whose a definition is: the person's own (`$SHIRO_HOME/…`, `~/.claude/…`) or the project's, which may be a stranger's. */
export type DefinitionScope = "user" | "project";

/** A Markdown definition file as read: where, whose, its exact text (what a person approves) and that text's hash. */
export type DefinitionFile = { path: string; relative: string; scope: DefinitionScope; text: string; hash: string };

export type DefinitionsOptions<T> = {
  /** Each scope's folders, shiro's first: within a scope the first folder's file of a name wins. */
  folders: Record<DefinitionScope, string[]>;
  root: string;
  /** What a definition is called in a warning: `command`, `agent`. */
  kind: string;
  /** How a warning writes a definition's name (`/review` for a command). */
  shown?: (name: string) => string;
  /** The definition a file holds, with its name, or why it holds none. */
  parse: (file: DefinitionFile) => (T & { name: string }) | string;
  warn: (line: string) => void;
};

/**
 * Every definition of the folders (saved commands, custom agents), one per name: a project's replaces
 * the person's own of the same name, and within a scope shiro's folder wins over Claude Code's (the
 * file not used named in one warning). A file that cannot be one — a secret or a link to one, a link
 * out of the project, too big, unparsable — is skipped with one warning naming it and why.
 */
export async function readDefinitions<T>(o: DefinitionsOptions<T>): Promise<(T & { name: string })[]> {
  const byName = new Map<string, T & { name: string; path: string }>();
  const project = await realpath(o.root).catch(() => o.root);
  for (const scope of ["user", "project"] as const) {
    const inScope = new Map<string, T & { name: string; path: string }>();
    for (const folder of o.folders[scope])
      for (const file of await readFolder(folder, scope, project, o)) {
        const parsed = o.parse(file);
        if (typeof parsed === "string") {
          o.warn(`skipping ${o.kind} ${file.path}: ${parsed}`);
          continue;
        }
        const first = inScope.get(parsed.name);
        if (first) o.warn(`${o.kind} ${file.path} is not used: ${first.path} is ${o.shown ? o.shown(parsed.name) : parsed.name} too (shiro's folder wins)`);
        else inScope.set(parsed.name, { ...parsed, path: file.path });
      }
    for (const definition of inScope.values()) byName.set(definition.name, definition);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

async function readFolder(dir: string, scope: DefinitionScope, project: string, o: { kind: string; warn: (line: string) => void }): Promise<DefinitionFile[]> {
  let files: string[];
  try {
    files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith(".md")).sort();
  } catch {
    return [];
  }
  const read: DefinitionFile[] = [];
  for (const relative of files) {
    const path = join(dir, relative);
    const problem = await readFile(path, relative, scope, project).then(
      (file) => (typeof file === "string" ? file : void read.push(file)),
      (err: Error) => `cannot read it (${err.message})`,
    );
    if (problem) o.warn(`skipping ${o.kind} ${path}: ${problem}`);
  }
  return read;
}

async function readFile(path: string, relative: string, scope: DefinitionScope, project: string): Promise<DefinitionFile | string> {
  // A link named `deploy.md` to `.env` or out of the project would show, and send, what it leads to.
  if (isSecret(resolvePath(path, diskEnv(project)))) return "it is a secret file (or a link to one)";
  if (scope === "project" && !(await realpath(path)).startsWith(project + sep)) return "it is a link out of the project";
  const handle = Bun.file(path);
  if (handle.size > LIMITS.bodyBytes) return `it is over ${LIMITS.bodyBytes / 1024} KiB`;
  const text = await handle.text();
  return { path, relative, scope, text, hash: definitionHash(text) };
}
