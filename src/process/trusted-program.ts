import { realpathSync, statSync, type Stats } from "node:fs";
import { dirname, join } from "node:path";

/** A system program found by absolute path, with what it was when found (checked again before each use). */
export type TrustedProgram = { path: string; identity: string };
export type TrustedLookup = { ok: true; program: TrustedProgram } | { ok: false; why: string };

/**
 * Where system programs live. PATH is never searched: a folder on it may be the project's
 * (`node_modules/.bin`, a venv) or the home's, and a `bwrap` or `rg` planted there would run outside
 * any sandbox. Only these folders, and only when root owns them and no one else can write them.
 */
export const TRUSTED_DIRS: readonly string[] = ["/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin"];

/** SHIRO_SYSTEM_DIRS (colon-separated) replaces the list, e.g. for NixOS; each folder must still pass the same checks. */
export const systemDirs = (env: Readonly<Record<string, string | undefined>> = process.env): readonly string[] =>
  env.SHIRO_SYSTEM_DIRS?.trim() ? env.SHIRO_SYSTEM_DIRS.split(":").filter(Boolean) : TRUSTED_DIRS;

const identityOf = (st: Stats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;

/** Why `path` (a folder or the program) could be replaced by someone other than root, or undefined when it cannot. */
function unsafe(path: string, st: Stats): string | undefined {
  if (st.uid !== 0) return `${path} is owned by uid ${st.uid}, not root`;
  if (st.mode & 0o022) return `${path} is writable by ${st.mode & 0o002 ? "anyone" : "its group"}`;
  return undefined;
}

/** Checks the real file and every folder above it. */
function vet(real: string): { st: Stats } | { why: string } {
  const st = statSync(real, { throwIfNoEntry: false });
  if (!st?.isFile()) return { why: `${real} is not a file` };
  if (!(st.mode & 0o111)) return { why: `${real} is not executable` };
  for (let path = real, cur: Stats = st; ; ) {
    const why = unsafe(path, cur);
    if (why) return { why };
    if (path === "/") return { st };
    path = dirname(path);
    cur = statSync(path);
  }
}

/** `name` in the trusted folders, resolved through links, the file and each folder above it owned by root and writable by no one else. */
export function findTrusted(name: string, dirs: readonly string[] = systemDirs()): TrustedLookup {
  const refused: string[] = [];
  for (const dir of dirs) {
    let real: string;
    try {
      real = realpathSync(join(dir, name));
    } catch {
      continue;
    }
    const vetted = vet(real);
    if ("st" in vetted) return { ok: true, program: { path: real, identity: identityOf(vetted.st) } };
    refused.push(vetted.why);
  }
  const onPath = Bun.which(name);
  if (refused.length) return { ok: false, why: `${name} was refused: ${refused[0]}` };
  const unused = onPath ? ` (${onPath}, found on PATH, is not used: a folder on PATH may be the project's or the home's)` : "";
  return { ok: false, why: `${name} is not installed in ${dirs.join(", ")}${unused}` };
}

/** Whether the program is still the file that was vetted (same inode, size and times); else why not. */
export function changedSince(program: TrustedProgram): string | undefined {
  const st = statSync(program.path, { throwIfNoEntry: false });
  if (!st) return `${program.path} is gone`;
  return identityOf(st) === program.identity ? undefined : `${program.path} was replaced or changed since shiro started`;
}
