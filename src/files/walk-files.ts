import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { join, resolve } from "node:path";
import { isInside, relativePosix } from "./project-paths.ts";
import { breather } from "./breather.ts";
import { isIgnored, matchIgnoreRules, parseGitignore, type IgnoreRule } from "./gitignore.ts";

/** Answers "would git hide this?" for root-relative `/`-separated paths, reading nested `.gitignore` files on demand. */
export type Ignore = {
  ignores(relPath: string, isDir: boolean): boolean;
  /** The rules that apply inside `dirRel` (root first, deeper folders later so they win). */
  rulesFor(dirRel: string): IgnoreRule[];
};

export function loadIgnore(root: string): Ignore {
  const cache = new Map<string, IgnoreRule[]>();
  const own = (dirRel: string): IgnoreRule[] => {
    let rules = cache.get(dirRel);
    if (!rules) {
      let text = "";
      try {
        text = readFileSync(join(root, dirRel, ".gitignore"), "utf8");
      } catch {
        // No .gitignore here (or unreadable): nothing hidden by this folder.
      }
      rules = parseGitignore(text, dirRel);
      cache.set(dirRel, rules);
    }
    return rules;
  };
  const rulesFor = (dirRel: string): IgnoreRule[] => {
    const parts = dirRel.split("/").filter(Boolean);
    const rules = [...own("")];
    for (let i = 1; i <= parts.length; i++) rules.push(...own(parts.slice(0, i).join("/")));
    return rules;
  };
  return {
    rulesFor,
    ignores(relPath, isDir) {
      const parent = relPath.split("/").filter(Boolean).slice(0, -1).join("/");
      return isIgnored(rulesFor(parent), relPath, isDir);
    },
  };
}

/** How many entries a walk lists at most (about 100 MB of paths): a tree past it is cut, and `truncated` says so. */
export const WALK_LIMIT = 1_000_000;

export type WalkOptions = {
  /** Stop after this many entries (default WALK_LIMIT). */
  limit?: number;
  /** 1 = only the entries directly in `dir`. Unlimited by default. */
  maxDepth?: number;
  /** Also list folders (with a trailing `/`). */
  includeDirs?: boolean;
  /** Leaves out, unopened, the entries it names (a folder with all it holds); `path` is as it would be returned. */
  skip?: (name: string, path: string) => boolean;
  /** Leaves out symlinks to files too (a search does not follow links, as ripgrep does not). */
  noLinks?: boolean;
  /** Whose .gitignore files apply: by default `root`, or `dir` itself when it lies outside `root`. */
  ignoreRoot?: string;
  /** Stops the walk (Esc): what was listed so far comes back. */
  signal?: AbortSignal;
};
export type WalkResult = { paths: string[]; truncated: boolean };

/**
 * Lists the files under `dir` that git would not hide, depth first, folders before files, each folder
 * sorted by name. Paths come back relative to `root` with `/` separators. A `dir` outside `root` is
 * walked with its own `.gitignore` files. Symlinked folders are not followed (no loops).
 */
export async function walkFiles(root: string, dir: string, options: WalkOptions = {}): Promise<WalkResult> {
  const limit = options.limit ?? WALK_LIMIT;
  const start = resolve(root, dir);
  const ignoreRoot = options.ignoreRoot ?? (isInside(start, resolve(root)) ? resolve(root) : start);
  const ignore = loadIgnore(ignoreRoot);
  const paths: string[] = [];
  let truncated = false;
  const breathe = breather();

  const visit = async (abs: string, depth: number): Promise<void> => {
    const dirRel = relativePosix(ignoreRoot, abs);
    // Built by concatenation: path.relative per file was most of a large walk's time.
    const prefix = relativePosix(root, abs);
    await breathe();
    if (options.signal?.aborted) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return; // unreadable folder: skip it rather than fail the whole walk
    }
    const rules = ignore.rulesFor(dirRel);
    const items: { name: string; isDir: boolean }[] = [];
    for (const entry of entries) {
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        if (options.noLinks) continue;
        let target;
        try {
          target = statSync(join(abs, entry.name));
        } catch {
          continue; // dangling, or a loop of links
        }
        if (target.isDirectory()) continue;
        isDir = false;
      } else if (!isDir && !entry.isFile()) continue;
      if (entry.name === ".git") continue;
      if (matchIgnoreRules(rules, dirRel === "" ? entry.name : `${dirRel}/${entry.name}`, isDir)) continue;
      items.push({ name: entry.name, isDir });
    }
    items.sort((a, b) => (a.isDir === b.isDir ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.isDir ? -1 : 1));
    for (const item of items) {
      if (paths.length >= limit) {
        truncated = true;
        return;
      }
      const rel = prefix === "" ? item.name : `${prefix}/${item.name}`;
      if (options.skip?.(item.name, rel)) continue;
      if (!item.isDir) paths.push(rel);
      else {
        if (options.includeDirs) paths.push(rel + "/");
        if (options.maxDepth === undefined || depth < options.maxDepth) await visit(join(abs, item.name), depth + 1);
      }
    }
  };
  await visit(start, 1);
  return { paths, truncated };
}
