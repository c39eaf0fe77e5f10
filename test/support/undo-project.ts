/**
 * A git project as a person leaves it mid-work, inside a home full of dotfiles with a sibling project
 * beside it: tracked files, uncommitted changes, untracked and ignored files, a binary and a secret,
 * a symlink, a stash and a second branch. `snapshot()` reads back every byte of the working tree and what git
 * says of it, so a test can assert an undo left it exactly as it was.
 */
import { mkdirSync, readdirSync, readFileSync, lstatSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./run-shiro.ts";

export type UndoProject = { base: string; home: string; project: string; sibling: string };

const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { PATH: process.env.PATH, HOME: join(cwd, ".."), GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "P", GIT_AUTHOR_EMAIL: "p@x", GIT_COMMITTER_NAME: "P", GIT_COMMITTER_EMAIL: "p@x" } });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString();
};
export const gitIn = git;

export function undoProject(): UndoProject {
  const base = tempDir("undo");
  const home = join(base, "home");
  const project = join(home, "work", "app");
  const sibling = join(home, "work", "other");
  for (const dir of [project, sibling, join(home, ".ssh")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, ".bashrc"), "export PS1='$ '\n");
  writeFileSync(join(home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\nhomekey\n");
  writeFileSync(join(sibling, "notes.md"), "the sibling's notes\n");
  const files: Record<string, string | Uint8Array> = {
    "README.md": "# app\n",
    "src/main.ts": 'console.log("main");\n',
    "src/util.ts": "export const add = (a: number, b: number) => a + b;\n",
    "docs/guide.md": "## guide\nstep one\n",
    ".gitignore": ".env\nbuild/\n*.log\n",
  };
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(project, path, ".."), { recursive: true });
    writeFileSync(join(project, path), data);
  }
  git(project, "init", "-q", "-b", "main");
  git(project, "add", "-A");
  git(project, "commit", "-q", "-m", "first");
  git(project, "branch", "feature");
  writeFileSync(join(project, "docs/guide.md"), "## guide\nstep one\nstashed step\n");
  git(project, "stash", "-q");
  // Uncommitted, staged, untracked, binary, ignored, secret.
  writeFileSync(join(project, "src/main.ts"), 'console.log("main, edited and not committed");\n');
  writeFileSync(join(project, "src/util.ts"), "export const add = (a: number, b: number) => a + b; // staged\n");
  git(project, "add", "src/util.ts");
  writeFileSync(join(project, "notes.txt"), "untracked thoughts\n");
  writeFileSync(join(project, "logo.png"), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255, 254, 0, 7]));
  writeFileSync(join(project, "debug.log"), "ignored log line\n");
  writeFileSync(join(project, ".env"), "API_TOKEN=sk-live-undo-0123456789abcdef\n");
  symlinkSync("docs/guide.md", join(project, "latest"));
  return { base, home, project, sibling };
}

/** Every file under the project (outside .git) by its bytes, plus git's own view (unless `git: false`): status, branches, stash, staged diff. */
export function snapshot(project: string, opts: { git?: boolean } = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(project, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === ".git") continue;
      const stats = lstatSync(join(project, path));
      if (stats.isDirectory()) walk(path);
      else out[path] = stats.isSymbolicLink() ? `link:${readlinkSync(join(project, path))}` : `${(stats.mode & 0o777).toString(8)}:${readFileSync(join(project, path)).toString("base64")}`;
    }
  };
  walk("");
  if (opts.git === false) return out;
  out["git status"] = git(project, "status", "--porcelain=v1", "--untracked-files=all", "--ignored");
  out["git branches"] = git(project, "branch", "-a", "-v", "--no-abbrev");
  out["git stash"] = git(project, "stash", "list", "--format=%H %s");
  out["git staged"] = git(project, "diff", "--cached");
  return out;
}
