import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { isInside } from "../files/project-paths.ts";

// Folders every backend shows as they are (Landlock grants them; bubblewrap hides none of them).
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/snap"];
// What marks the top of an installation: a package and its dependencies, a virtual environment, a crate or module, a checkout.
const MARKERS = ["package.json", "node_modules", "pyvenv.cfg", "pyproject.toml", "Cargo.toml", "go.mod", ".git"];

export type ReachOptions = {
  /** The project: shown already, and never shown whole through a folder holding it (its siblings stay hidden). */
  root: string;
  /** The person's homes: never shown whole, nor a folder holding one. */
  homes: readonly string[];
  /** Folders the command sees already (the project, the added folders, the tool folders). */
  seen: readonly string[];
};

/**
 * What a program the person chose to run in the sandbox (an MCP server with `"sandbox"`) needs shown
 * there, read-only, when it lives where a command sees nothing — a checkout in /tmp, a sibling of the
 * project, `~/.npm-global`, a pipx or uv venv behind a `~/.local/bin` link: otherwise the shell inside
 * reports the program "not found", or node a missing module, though it is installed. For each file (the
 * program as found on its PATH, the script it is given) and where its links lead: the top of the
 * installation it belongs to (the highest folder above it marked as a package, venv, crate, module or
 * checkout), else its folder, else the file alone — never `/`, a home, a folder holding a home or the
 * project. `cwd`, the folder it runs in, is shown as itself on the same terms. Masks still apply on top.
 */
export function programReach(files: readonly string[], cwd: string | undefined, o: ReachOptions): string[] {
  const needed = (path: string) => ![...o.seen, ...SYSTEM].some((dir) => isInside(path, dir));
  const places = files.filter((f) => existsSync(f)).flatMap((f) => [f, realpathSync(f)]);
  const shown = places.filter(needed).map((file) => installationOf(file, o));
  if (cwd !== undefined && needed(cwd) && mayShow(cwd, o)) shown.push(cwd);
  return outermost(shown);
}

/** Whether a folder may be shown whole: not `/`, a top folder (`/tmp`, `/home`), a home or what holds one, or what holds the project. */
const mayShow = (dir: string, o: ReachOptions) => dir.split("/").length > 2 && !o.homes.some((home) => isInside(home, dir)) && !isInside(o.root, dir);

function installationOf(file: string, o: ReachOptions): string {
  let top: string | undefined;
  for (let dir = dirname(file); mayShow(dir, o); dir = dirname(dir)) if (MARKERS.some((m) => existsSync(join(dir, m)))) top = dir;
  return top ?? (mayShow(dirname(file), o) ? dirname(file) : file);
}

/** Each place once, and none inside another (a folder bound inside one already shown would shadow nothing, and Landlock's private home links each once). */
export const outermost = (paths: readonly string[]): string[] => {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  return sorted.filter((path, i) => !sorted.slice(0, i).some((outer) => isInside(path, outer)));
};
