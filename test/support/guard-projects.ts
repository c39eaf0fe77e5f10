/** Temp projects (real folders, real git repos) for the guard and permission end-to-end tests. */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./run-shiro.ts";

export type Project = { outer: string; root: string; home: string };

/** `outer/proj` (so `../` leaves the project), a template file, a `sub/` folder and a temp home. */
export function secretProject(files: Record<string, string> = {}): Project {
  const outer = tempDir("guard");
  const root = join(outer, "proj");
  mkdirSync(join(root, "sub"), { recursive: true });
  writeFileSync(join(root, "template.txt"), "KEY=from-template\n");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return { outer, root, home: tempDir("guard-home") };
}

/** A symlink inside the project pointing at a `.env` that does not exist yet. */
export function danglingLinkToEnv(project: Project, name = "link"): void {
  symlinkSync(".env", join(project.root, name));
}

const IDENTITY = ["-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main"];

export function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...IDENTITY, ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** Makes the project a git repo with one commit of everything, pushed to a local bare `remote.git`. */
export function gitProject(project: Project): { remote: string; head: string } {
  const remote = join(project.outer, "remote.git");
  git(project.outer, "init", "-q", "--bare", remote);
  git(project.root, "init", "-q");
  git(project.root, "add", "-A");
  git(project.root, "commit", "-q", "-m", "first");
  git(project.root, "remote", "add", "origin", remote);
  git(project.root, "push", "-q", "origin", "main");
  return { remote, head: git(remote, "rev-parse", "main") };
}

/**
 * A home, and the environment to run shiro with, where every command's shell turns on bash's no-exec
 * mode first: if the guard ever let a system-wide destructive command through (`rm -rf /`, `mkfs`, a
 * fork bomb), bash would read it and run nothing.
 */
export function noExecHome(): { home: string; env: Record<string, string> } {
  const home = tempDir("noexec-home");
  writeFileSync(join(home, ".bash_env"), "set -n\n");
  // The sandbox hides the home from commands: opened read-only, and BASH_ENV passed, the file is what every
  // non-interactive bash reads before its command.
  writeFileSync(join(home, "config.json"), JSON.stringify({ sandbox: { readable: [home], env: ["BASH_ENV"] } }));
  return { home, env: { BASH_ENV: join(home, ".bash_env") } };
}

export const read = (path: string) => readFileSync(path, "utf8");
