import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { gitDirsOf, textOf } from "../guard/git-dirs.ts";
import type { NamedValue } from "./redact.ts";
import { findTrusted } from "../process/trusted-program.ts";
import { secretValues } from "./secret-values.ts";

const MAX_FILES = 100;
const MAX_BYTES = 256 * 1024;

/**
 * The values of the secret files committed at the project's HEAD (`git show HEAD:.env` of a value since
 * changed), read again only when HEAD moves: a call costs reading `.git/HEAD` and its ref. Only a
 * project whose root holds `.git`; older commits are not read (the guard refuses naming them by path).
 */
export function createHeadSecretValues(root: string, isSecretPath: (path: string) => boolean): () => NamedValue[] {
  let cached: { head: string; values: NamedValue[] } | undefined;
  return () => {
    const head = headCommit(join(root, ".git"));
    if (head === undefined) return [];
    if (cached?.head === head) return cached.values;
    cached = { head, values: committedSecrets(root, head, isSecretPath) };
    return cached.values;
  };
}

function committedSecrets(root: string, head: string, isSecretPath: (path: string) => boolean): NamedValue[] {
  const tree = git(root, ["ls-tree", "-r", "-z", "--full-tree", head]);
  if (tree === undefined) return [];
  const blobs = tree
    .split("\0")
    .map((line) => /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && isSecretPath(join(root, m[2]!)))
    .slice(0, MAX_FILES);
  return blobs.flatMap(([, id, path]) => {
    const text = git(root, ["cat-file", "blob", id!]);
    return text === undefined || text.includes("\0") ? [] : secretValues(path!, text).map((value) => ({ name: `HEAD:${path}`, value }));
  });
}

// This git runs outside any sandbox: from the system folders, never a `git` planted on PATH (`node_modules/.bin`).
let trustedGit: string | null | undefined;

function git(root: string, args: string[]): string | undefined {
  trustedGit ??= ((found) => (found.ok ? found.program.path : null))(findTrusted("git"));
  if (!trustedGit) return undefined;
  const r = spawnSync(trustedGit, ["--no-pager", "-C", root, ...args], { encoding: "utf8", maxBuffer: MAX_BYTES * MAX_FILES, stdio: ["ignore", "pipe", "ignore"] });
  return r.status === 0 ? r.stdout : undefined;
}

/** HEAD's commit id, from the files git keeps it in (a worktree's `.git` file and common dir too); undefined when unborn or unreadable. */
export function headCommit(dotGit: string): string | undefined {
  const { gitDir, common } = gitDirsOf(dotGit);
  const head = textOf(join(gitDir, "HEAD"))?.trim();
  if (!head) return undefined;
  if (!head.startsWith("ref: ")) return /^[0-9a-f]{40,64}$/.test(head) ? head : undefined;
  const ref = head.slice(5);
  for (const dir of [gitDir, common]) {
    const id = textOf(join(dir, ref))?.trim();
    if (id) return id;
  }
  return textOf(join(common, "packed-refs"))?.match(new RegExp(`^([0-9a-f]{40,64}) ${ref.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"))?.[1];
}
