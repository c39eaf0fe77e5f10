import { cpSync, lstatSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { plantedGitCode } from "./planted-git-code.ts";
import type { ProjectScan } from "./secret-scanner.ts";

/** What a command left that the model must hear about: each line for its result, and whether it counts as a denial. */
export type Aftermath = { notes: string[]; denied: boolean };

/** A file's identity across renames: a secret moved with its folder (`mv app app2`) is the same secret, not a new one. */
export const identityOf = (path: string): string | undefined => {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st ? `${st.dev}:${st.ino}` : undefined;
};

/**
 * After a command that could write the project. Nothing here deletes a byte: a secret file the command
 * made stays where it is (masked from the next command on, refused to the file tools) and is reported
 * as a denial; a secret that was only moved is left alone. A git repository it made whose config or
 * hooks would run code the next time the person uses git is moved whole into `quarantine` (under
 * shiro's home), where the person can look at it and put it back.
 */
export function commandAftermath(o: { root: string; quarantine: string; before: ProjectScan; knownIds: ReadonlySet<string>; after: ProjectScan }): Aftermath {
  const old = new Set(o.before.secrets);
  const created = o.after.secrets.filter((path) => !old.has(path) && !o.knownIds.has(identityOf(path) ?? ""));
  const oldGits = new Set(o.before.gits);
  // A repository that was there, moved with its folder (`mv vendor/lib vendor/lib2`), is the person's own: not new.
  const planted = o.after.gits.flatMap((path) => {
    if (oldGits.has(path) || o.knownIds.has(identityOf(path) ?? "")) return [];
    const why = plantedGitCode(path);
    return why ? [{ path, why }] : [];
  });
  const notes: string[] = [];
  if (created.length) {
    notes.push(`Denied: it created secret ${created.length === 1 ? "file" : "files"} ${created.map((p) => relative(o.root, p)).join(", ")}; kept for the user but hidden from every tool — commands may not make secret files.`);
  }
  for (const { path, why } of planted) {
    const to = quarantine(path, o.root, o.quarantine);
    notes.push(`Denied: it made the git repository ${relative(o.root, path)}, and ${why}, which would run outside the sandbox the next time the user runs git; moved to ${to} for the user to review.`);
  }
  return { notes, denied: notes.length > 0 };
}

function quarantine(path: string, root: string, folder: string): string {
  const to = join(folder, `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}`, relative(root, path).replaceAll("/", "__"));
  mkdirSync(join(to, ".."), { recursive: true });
  try {
    renameSync(path, to);
  } catch {
    // Another filesystem: copy, and remove the original only once the copy is whole.
    cpSync(path, to, { recursive: true, verbatimSymlinks: true });
    rmSync(path, { recursive: true, force: true });
  }
  return to;
}
