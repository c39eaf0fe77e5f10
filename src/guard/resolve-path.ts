import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { isInside } from "../files/project-paths.ts";
import type { SecretNames } from "./secret-names.ts";

/** `absolute`: the path as written, made absolute; `real`: where it lands after every symlink. */
export type ResolvedPath = { absolute: string; real: string; insideRoot: boolean };

/** The only file-system questions path resolution asks; injectable so the logic stays testable. */
export type PathFs = {
  /** The canonical path of an existing entry, or undefined when it does not exist. */
  realpath(path: string): string | undefined;
  /** The target of a symlink (dangling or not), or undefined when `path` is not a symlink. */
  readlink(path: string): string | undefined;
  isDirectory(path: string): boolean;
};

/** What the file tools may reach besides the project: the added folders, and the places only a person opens. */
export type Reach = {
  /** `--add-dir`, `sandbox.writable`: read and written as the project is. */
  writable: readonly string[];
  /** `sandbox.readable`: read as the project is. */
  readable: readonly string[];
  /** `$SHIRO_HOME`: sessions, memory and config, which only a person opens to a tool. */
  shiroHome?: string;
  /** The project's files the hooks and MCP servers in force run as the person (program-files.ts), now. */
  programs?: () => readonly string[];
};

/** Where paths are judged from: the project root, the home `~` stands for, the disk, which names are secret (built-in ones when unset), and what file tools reach beyond the root. */
export type PathEnv = { root: string; home: string; fs: PathFs; secrets?: SecretNames; reach?: Reach };

export const diskFs: PathFs = {
  realpath: (path) => attempt(() => realpathSync(path)),
  readlink: (path) => attempt(() => (lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined)),
  isDirectory: (path) => attempt(() => statSync(path).isDirectory()) ?? false,
};

/**
 * A path already free of links, judged as it stands: resolving it again would follow whatever link is
 * there now — the very race the file tools close by walking folders held open.
 */
export const asItStands: PathFs = { realpath: (path) => path, readlink: () => undefined, isDirectory: () => false };

export const diskEnv = (root: string, home = homedir()): PathEnv => ({ root, home, fs: diskFs });

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** `~` and `~/x` expand to home, relative paths are taken from `cwd`, `..` is folded. */
export function absolutePath(raw: string, cwd: string, home: string): string {
  const expanded = raw === "~" ? home : raw.startsWith("~/") ? join(home, raw.slice(2)) : raw;
  return resolve(cwd, expanded);
}

/**
 * Resolves a subject path against the root. The longest existing prefix goes through realpath and the
 * rest is appended; a dangling symlink in the rest is followed too, so `link -> .env` is judged as `.env`
 * even before `.env` exists.
 */
export function resolvePath(raw: string, env: PathEnv, cwd = env.root): ResolvedPath {
  const absolute = absolutePath(raw, cwd, env.home);
  const real = realPath(absolute, env.fs);
  const realRoot = env.fs.realpath(env.root) ?? resolve(env.root);
  return { absolute, real, insideRoot: isInside(real, realRoot) };
}

function realPath(absolute: string, fs: PathFs, hops = 0): string {
  const parts = absolute.split(sep).filter(Boolean);
  let existing = parts.length;
  let base: string | undefined;
  for (; existing >= 0; existing--) {
    base = fs.realpath(sep + parts.slice(0, existing).join(sep));
    if (base !== undefined) break;
  }
  if (base === undefined) return absolute;
  const rest = parts.slice(existing);
  if (rest.length === 0) return base;
  const next = join(base, rest[0]!);
  const target = hops < 40 ? fs.readlink(next) : undefined;
  if (target === undefined) return join(base, ...rest);
  return realPath(resolve(base, target, ...rest.slice(1)), fs, hops + 1);
}

/** How a path is shown and matched by rules: relative to the root when inside it, absolute otherwise. */
export function displayPath(path: string, env: PathEnv): string {
  for (const root of [env.fs.realpath(env.root), resolve(env.root)]) {
    if (root !== undefined && isInside(path, root)) return relative(root, path) || ".";
  }
  return path;
}

/** The names a path is judged by: as written and where it really lands (once when they agree). */
export function pathNames(resolved: ResolvedPath, env: PathEnv): string[] {
  const written = displayPath(resolved.absolute, env);
  const real = displayPath(resolved.real, env);
  return written === real ? [real] : [written, real];
}
