import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isInside } from "../files/project-paths.ts";
import { isSecretPath, SECRET_DIRS, SECRET_PLACES } from "../guard/secret-path.ts";

export type Secrets = { files: string[]; dirs: string[] };

// Folders in the home that hold credentials as a whole: the guard's, and the usual tool logins' (masked whole,
// though the guard names only one file in some of them: what else is there is theirs too).
const HOME_SECRET_DIRS = [...SECRET_DIRS, ".kube", ".docker", ".config/gh"];

/**
 * Every secret the sandbox must mask: the project's (as its scanner found them: ignored files too,
 * that is where `.env` lives), secret files at the top of the home, the home's credential folders and
 * stores, and shiro's own home. A dangling link is left out (there is nothing to read, and nothing to mount over).
 */
export function findSecrets(opts: { root: string; home: string; shiroHome: string; project: readonly string[]; isSecretPath?: (path: string) => boolean }): Secrets {
  const inProject = [...opts.project];
  // A folder that holds the project (or the home) cannot be masked without hiding it.
  const dirs = [...HOME_SECRET_DIRS.map((d) => join(opts.home, d)), opts.shiroHome, ...inProject]
    .filter((d) => isDir(d) && !isInside(opts.root, d) && !isInside(opts.home, d));
  const files = [...inProject, ...topLevelSecrets(opts.home, opts.isSecretPath ?? isSecretPath), ...homeStores(opts.home)].filter((f) => exists(f) && !isDir(f));
  // A file inside a masked folder is hidden with it (and there would be nothing to mount it on).
  const covered = (path: string) => dirs.some((d) => isInside(path, d));
  return { files: [...new Set(files)].filter((f) => !covered(f)).sort(), dirs: [...new Set(dirs)].sort() };
}

/** The home's credential stores by place (`.cargo/credentials`, `.m2/settings*.xml`…), as they exist. */
export function homeStores(home: string): string[] {
  return SECRET_PLACES.flatMap((place) => {
    if (!place.includes("*")) return [join(home, place)];
    const [before, after] = basename(place).split("*") as [string, string];
    return names(join(home, dirname(place))).filter((n) => n.startsWith(before) && n.endsWith(after)).map((n) => join(home, dirname(place), n));
  });
}

function topLevelSecrets(home: string, isSecret: (path: string) => boolean): string[] {
  return names(home)
    .map((name) => join(home, name))
    .filter((path) => isSecret(path));
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const exists = (path: string) => statSync(path, { throwIfNoEntry: false }) !== undefined;
const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** A file as itself; a secret folder (`.ssh`, `~/.aws`) as the files directly in it. */
export function filesIn(path: string): string[] {
  if (!isDir(path)) return [path];
  return names(path).map((n) => join(path, n));
}
