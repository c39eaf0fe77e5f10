import { realpathSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { ToolContext } from "../tool.ts";
import { isInside, relativePosix } from "../../files/project-paths.ts";
import { matchIgnoreRules } from "../../files/gitignore.ts";
import { loadIgnore } from "../../files/walk-files.ts";

/** One grep over a folder: what it may search and what it may show, however the files were found. */
export type SearchScope = {
  root: string;
  /** The folder searched (absolute). */
  dir: string;
  /** Where .gitignore files are read from: the root, or `dir` itself when it lies outside the root. */
  ignoreRoot: string;
  glob?: string;
  /** Whether `glob` takes this file: by name when it has no `/`, else by its path from `dir`. */
  globTakes(abs: string): boolean;
  /** Whether the walk would list it: nothing below `dir` hides it (.gitignore, .git/) and `glob` takes it. */
  wanted(abs: string): boolean;
  /** Whether its lines may be shown: a direct read would not be denied and it really lies in `dir`. */
  mayShow(abs: string): boolean;
};

export function searchScope(root: string, dir: string, glob: string | undefined, ctx: Pick<ToolContext, "readDenied">): SearchScope {
  const ignoreRoot = isInside(dir, resolve(root)) ? resolve(root) : dir;
  const ignore = loadIgnore(ignoreRoot);
  const dirRel = relativePosix(ignoreRoot, dir);
  const matcher = glob === undefined ? undefined : new Bun.Glob(glob);
  const byName = glob !== undefined && !glob.includes("/");
  const realDir = realpathSync(dir);
  const globTakes = (abs: string) => matcher?.match(byName ? basename(abs) : relativePosix(dir, abs)) ?? true;
  return {
    root,
    dir,
    ignoreRoot,
    ...(glob === undefined ? {} : { glob }),
    globTakes,
    wanted(abs) {
      const parts = relativePosix(ignoreRoot, abs).split("/");
      // Only what lies below `dir` counts: naming an ignored folder as `path` searches it, as the walk does.
      for (let i = dirRel === "" ? 1 : dirRel.split("/").length + 1; i <= parts.length; i++) {
        const rel = parts.slice(0, i).join("/");
        if (parts[i - 1] === ".git" || matchIgnoreRules(ignore.rulesFor(parts.slice(0, i - 1).join("/")), rel, i < parts.length)) return false;
      }
      return globTakes(abs);
    },
    mayShow(abs) {
      if (ctx.readDenied?.(abs)) return false;
      let real = abs;
      try {
        real = realpathSync(abs);
      } catch {
        return false; // gone since it was found
      }
      return isInside(real, realDir);
    },
  };
}
