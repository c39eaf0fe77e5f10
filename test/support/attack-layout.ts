/**
 * The folders an attack may reach, all inside one temp folder of this test run:
 *
 *   base/home        HOME (the attacks' `~`)
 *   base/outer       the project's parent (`..`), which a workspace-write sandbox leaves read-only
 *   base/outer/proj  the project, where shiro starts
 *   base/tmp         TMPDIR (a sandbox's private /tmp hides it)
 *   base/shiro       SHIRO_HOME: sessions stay outside HOME, so wiping `~` cannot break the run
 *
 * The attacks really run (that is the point), so before anything runs the layout must prove it lies
 * inside the preload's per-run temp folder: no attack can then reach beyond what the run deletes.
 *
 * The home and the project each hold a harmless `visible.txt`: a run first tries both, proving the
 * sandbox shows the command the project (rather than passing the attacks by hiding everything) and
 * hides the home, as it hides every person's home and the project's parent.
 */
import { lstatSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, sep } from "node:path";
import { test } from "bun:test";
import { landlockAbi } from "../../src/sandbox/landlock-syscalls.ts";
import { tempDir } from "./run-shiro.ts";
import { toolHere } from "./tool-here.ts";

export type Layout = { base: string; home: string; outer: string; root: string; tmp: string; shiroHome: string };

export function attackLayout(prefix: string): Layout {
  const base = tempDir(prefix);
  const layout = { base, home: join(base, "home"), outer: join(base, "outer"), root: join(base, "outer", "proj"), tmp: join(base, "tmp"), shiroHome: join(base, "shiro") };
  for (const dir of [layout.home, layout.root, layout.tmp, layout.shiroHome]) mkdirSync(dir, { recursive: true });
  for (const [dir, text] of [[layout.home, "seen: home"], [layout.root, "seen: project"]]) writeFileSync(join(dir!, "visible.txt"), `${text}\n`);
  assertDisposable(layout);
  return layout;
}

/**
 * The first call of every run: what its output must show (the project) and what it must not (the
 * home, which the sandbox shows as an empty folder). Seeing the project proves the sandbox did not pass
 * the attacks by hiding everything; not seeing the home proves the home's files were out of reach.
 */
export const PROBE = { command: "cat visible.txt; cat ~/visible.txt", sees: ["seen: project"], hidden: ["seen: home"] };

/** Throws unless every folder of the layout is inside the preload's `shiro-test-run-*` temp folder. */
export function assertDisposable(layout: Layout): void {
  const run = realpathSync(tmpdir());
  if (!basename(run).startsWith("shiro-test-run-")) throw new Error(`refusing to run attacks: TMPDIR ${run} is not the test preload's run folder`);
  for (const [name, path] of Object.entries(layout)) {
    if (!realpathSync(path).startsWith(run + sep)) throw new Error(`refusing to run attacks: ${name} ${path} is outside ${run}`);
  }
}

/** The environment shiro (and so each command) gets on top of run-shiro's PATH, HOME and test key. */
export const layoutEnv = (l: Layout) => ({ SHIRO_HOME: l.shiroHome, TMPDIR: l.tmp });

/**
 * Runs `command` as the bash tool would (`bash -c` in the project), with no protection at all. The
 * parent is a shell in the project, as shiro is for the tool, so `/proc/$PPID/…` sees what it would.
 */
export async function plainBash(l: Layout, command: string, env: Record<string, string> = {}): Promise<string> {
  assertDisposable(l);
  const proc = Bun.spawn(["sh", "-c", 'bash -c "$1"; exit $?', "sh", command], {
    cwd: l.root,
    env: { PATH: process.env.PATH!, HOME: l.home, ...layoutEnv(l), ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 10_000,
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return out + err;
}

export type Entry = { rel: string; kind: "file" | "dir" | "link" };

/** Every entry below `dir` (links not followed), as paths relative to it; `skip` prunes a folder. */
export function walk(dir: string, skip: (rel: string) => boolean = () => false, prefix = ""): Entry[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, prefix));
  } catch {
    return [];
  }
  return names.flatMap((name): Entry[] => {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (skip(rel)) return [];
    const st = lstatSync(join(dir, rel), { throwIfNoEntry: false });
    if (!st) return [];
    if (st.isSymbolicLink()) return [{ rel, kind: "link" }];
    if (!st.isDirectory()) return [{ rel, kind: "file" }];
    return [{ rel, kind: "dir" }, ...walk(dir, skip, rel)];
  });
}

/** How a base-relative path reads to a person: `~/.ssh/x`, `.env` (in the project), `../x`, `$TMPDIR/x`. */
export function shown(rel: string): string {
  if (rel.startsWith("home/")) return `~/${rel.slice(5)}`;
  if (rel.startsWith("outer/proj/")) return rel.slice(11);
  if (rel.startsWith("outer/")) return `../${rel.slice(6)}`;
  if (rel.startsWith("tmp/")) return `$TMPDIR/${rel.slice(4)}`;
  return rel;
}

// (Evaluated once a run: in CI the first file that imports this gets the failing test.)
export const bwrapMissing = !toolHere("bwrap", Bun.which("bwrap") !== null);

/** The sandboxes the attack suites run against: bubblewrap where installed, Landlock where the kernel has it (issue 19: the same outcomes). */
export const BACKENDS: readonly string[] = [...(bwrapMissing ? [] : ["bwrap"]), ...(landlockAbi() > 0 ? ["landlock"] : [])];

/** One concurrent test per backend (`name (landlock)`), each handed the environment that forces it; skipped, saying so, where there is none. */
export function eachBackend(name: string, fn: (env: { SHIRO_SANDBOX_BACKEND: string }) => Promise<void>): void {
  if (BACKENDS.length === 0) test.skip(`${name} (sandbox: needs bwrap or Landlock)`, () => {});
  for (const backend of BACKENDS) test.concurrent(`${name} (${backend})`, () => fn({ SHIRO_SANDBOX_BACKEND: backend }));
}
