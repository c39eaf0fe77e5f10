import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isInside } from "../tools/resolve-path.ts";
import { isSecretPath } from "../guard/secret-path.ts";

export type Secrets = { files: string[]; dirs: string[] };

// Folders in the home that hold credentials as a whole (the guard's list, and the usual tool logins).
const HOME_SECRET_DIRS = [".ssh", ".aws", ".gnupg", ".azure", ".kube", ".docker", ".config/gh", ".config/gcloud"];
const HOME_SECRET_FILES = [".git-credentials"];

/**
 * Every secret the sandbox must mask: the project's (as its scanner found them: ignored files too,
 * that is where `.env` lives), secret files at the top of the home, the home's credential folders and
 * shiro's own home. A dangling link is left out (there is nothing to read, and nothing to mount over).
 */
export function findSecrets(opts: { root: string; home: string; shiroHome: string; project: readonly string[] }): Secrets {
  const inProject = [...opts.project];
  // A folder that holds the project (or the home) cannot be masked without hiding it.
  const dirs = [...HOME_SECRET_DIRS.map((d) => join(opts.home, d)), opts.shiroHome, ...inProject]
    .filter((d) => isDir(d) && !isInside(opts.root, d) && !isInside(opts.home, d));
  const files = [...inProject, ...topLevelSecrets(opts.home), ...HOME_SECRET_FILES.map((f) => join(opts.home, f))].filter((f) => exists(f) && !isDir(f));
  // A file inside a masked folder is hidden with it (and there would be nothing to mount it on).
  const covered = (path: string) => dirs.some((d) => isInside(path, d));
  return { files: [...new Set(files)].filter((f) => !covered(f)).sort(), dirs: [...new Set(dirs)].sort() };
}

function topLevelSecrets(home: string): string[] {
  try {
    return readdirSync(home)
      .map((name) => join(home, name))
      .filter((path) => isSecretPath(path));
  } catch {
    return [];
  }
}

const exists = (path: string) => statSync(path, { throwIfNoEntry: false }) !== undefined;
const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
