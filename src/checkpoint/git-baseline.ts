import { lstatSync, type Stats } from "node:fs";
import { safeGit } from "./safe-git.ts";

/**
 * What a repository already holds of its work tree, for the first look: which files are byte for byte
 * the blob HEAD has for them, so that look records those by reference (the blob's id) and reads only
 * what is untracked, ignored, staged or changed. Its cost is git listing its index and HEAD's tree —
 * about a `git status` — not a read of every file. Not `git status` itself: for a file whose stat
 * changed it runs the repository's clean filter (a command its config names), and it calls a file
 * unchanged when its *filtered* bytes are the blob (CRLF, LFS) — here only bytes equal to the blob count.
 */
export type GitBaseline = {
  /** The repository's object store (its common git folder, absolute): where a referenced blob is read back. */
  gitDir: string;
  /**
   * The id of the HEAD blob that `rel` (a path of the project) holds, or undefined when that is not
   * known without reading it. `stats` is the file's lstat now: it must be what git recorded in its
   * index when it last wrote or checked the file (size, times, inode), and not too recent to trust.
   */
  blobOf(rel: string, stats: Stats): string | undefined;
};

type Entry = { oid: string; mtime: number; ctime: number; ino: number; size: number; headSize?: number };

// `ls-files --stage --debug -z`: mode, id, stage, path, then the stat git recorded (32-bit fields, times as s:ns).
const INDEX_ENTRY = () => /(\d+) ([0-9a-f]+) (\d)\t([^\0]*)\0 {2}ctime: (\d+):(\d+)\n {2}mtime: (\d+):(\d+)\n {2}dev: \d+\tino: (\d+)\n {2}uid: \d+\tgid: \d+\n {2}size: (\d+)\tflags: [0-9a-f]+\n/y;
// `ls-tree -r -l -z HEAD`: mode, type, id, size (padded), path.
const TREE_ENTRY = () => /\d+ (\w+) ([0-9a-f]+) +(-|\d+)\t([^\0]*)\0/y;
const U32 = 2 ** 32;
// Both times are whole nanoseconds; as float milliseconds they agree to well under a microsecond.
const near = (a: number, b: number) => Math.abs(a - b) < 0.001;

/**
 * The baseline of the repository whose work tree holds `root`, or undefined where there is none to
 * trust: no repository, no commit yet, no trusted git, or git failed (a partial clone missing an
 * object, a repository owned by another user). Then every file is read, as outside git.
 */
export async function readGitBaseline(root: string): Promise<GitBaseline | undefined> {
  const where = await gitText(root, ["rev-parse", "--path-format=absolute", "--git-common-dir", "--git-path", "index", "--is-inside-work-tree"]);
  const [gitDir, indexPath, inside] = where?.trimEnd().split("\n") ?? [];
  if (!gitDir?.startsWith("/") || !indexPath?.startsWith("/") || inside !== "true") return undefined;
  // Taken before the index is listed: an entry written in the same instant as the index may be
  // "racily clean" (changed again within the time git can tell apart), and is read instead.
  const indexTime = lstatSync(indexPath, { throwIfNoEntry: false })?.mtimeMs;
  if (indexTime === undefined) return undefined;
  const [index, tree] = await Promise.all([gitText(root, ["ls-files", "--stage", "--debug", "-z"]), gitText(root, ["ls-tree", "-r", "-l", "-z", "HEAD"])]);
  if (index === undefined || tree === undefined) return undefined;
  const entries = indexEntries(index);
  for (let m, re = TREE_ENTRY(); (m = re.exec(tree)); ) {
    const entry = entries.get(m[4]!);
    // Only a blob HEAD holds is referenced: one only staged could be pruned by a `git gc` before undo needs it.
    if (m[1] === "blob" && entry && entry.oid === m[2]) entry.headSize = Number(m[3]);
  }
  return {
    gitDir,
    blobOf(rel, stats) {
      const e = entries.get(rel);
      if (e?.headSize === undefined || !stats.isFile()) return undefined;
      // A size unlike the blob's: git's filters (line endings, LFS, ident) made the file other bytes than the blob.
      if (stats.size !== e.headSize) return undefined;
      if (stats.size % U32 !== e.size || stats.ino % U32 !== e.ino || !near(stats.mtimeMs, e.mtime) || !near(stats.ctimeMs, e.ctime)) return undefined;
      return e.mtime < indexTime ? e.oid : undefined;
    },
  };
}

/** The index's regular files at stage 0 (no conflict), by path. */
function indexEntries(text: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  for (let m, re = INDEX_ENTRY(); (m = re.exec(text)); ) {
    if (m[3] !== "0" || (m[1] !== "100644" && m[1] !== "100755")) continue;
    const ms = (s: string, ns: string) => Number(s) * 1000 + Number(ns) / 1e6;
    entries.set(m[4]!, { oid: m[2]!, ctime: ms(m[5]!, m[6]!), mtime: ms(m[7]!, m[8]!), ino: Number(m[9]), size: Number(m[10]) });
  }
  return entries;
}

/** What git printed, or undefined when it failed or cannot be run safely. */
async function gitText(cwd: string, args: string[]): Promise<string | undefined> {
  const git = safeGit({ cwd }, args);
  if (!git) return undefined;
  try {
    const proc = Bun.spawn(git.cmd, { env: git.env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return code === 0 ? text : undefined;
  } catch {
    return undefined; // cwd gone meanwhile
  }
}
