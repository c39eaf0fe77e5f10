import { lstatSync, readFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { BlobStore } from "./blob-store.ts";
import { readGitBaseline, type GitBaseline } from "./git-baseline.ts";
import { readGitBlobs, type GitBlob } from "./git-objects.ts";
import { openChangeWatch, type ChangeWatch } from "./inotify.ts";
import { keptSchema, MAX_KEPT_BYTES, sameKept, type Kept } from "./kept.ts";
import { projectScope, type ProjectScope } from "./project-scope.ts";
import { compileCheck } from "../session/compile-check.ts";
import { atomicWriteSync } from "../store/atomic-write.ts";
import { breather } from "../files/breather.ts";
import { readKept, statKey } from "./read-kept.ts";

/** One path that changed between two looks: what it was, and what it is (undefined: no such file). */
export type Change = { path: string; before?: Kept; after?: Kept };

/**
 * A path as last seen: its stat key and what it holds — or, for a file the first look found to be a
 * blob HEAD holds, that blob (`kept` is filled in, reading it back from git, only when a change needs it).
 */
type Seen = { stat: string; kept?: Kept; blob?: GitBlob & { mode: number } };

/** The project's files as last seen, kept current at the cost of what changed (a watch) or of a stat per file (a walk). */
export type ProjectState = {
  /** Looks again; returns what changed since the last look (the first look, at open, sets the baseline). */
  refresh(): Change[];
  /** What the path held at the last look. */
  get(path: string): Kept | undefined;
  /** Files over the size cap, as last seen. */
  big(): string[];
  /** Saves what was seen, so the next run hashes only what changed meanwhile; stops watching. */
  close(): void;
  /** Saves without closing (at the end of each turn). */
  save(): void;
};

export type ProjectStateOptions = {
  /** The project's real path. */
  root: string;
  blobs: BlobStore;
  /** Where what was seen is saved between runs (stat keys and hashes). */
  cachePath: string;
  exclude?: readonly string[];
  maxBytes?: number;
  /** Tests turn the watch off to time the walk. */
  watch?: boolean;
  /** False: read every file even in a git repository (tests compare). */
  git?: boolean;
  /** Ends the first look where it is (the run is over before it was done); the open then rejects. */
  signal?: AbortSignal;
  warn?: (line: string) => void;
};

const cacheSchema = z.object({ root: z.string(), files: z.array(z.object({ p: z.string(), s: z.string(), k: keptSchema })) });
// Read at the start of every run: checked by compiled checks, zod only to explain a file that does not fit.
const fitsCache = compileCheck(cacheSchema);

export async function openProjectState(o: ProjectStateOptions): Promise<ProjectState> {
  const { root, blobs } = o;
  let scope: ProjectScope = projectScope(root, o.exclude);
  let seen = loadCache(o);
  let dirty = true;
  let watch: ChangeWatch | undefined;
  let watching = o.watch !== false;
  // Only while the first look goes on: what git holds already need not be read.
  let baseline: GitBaseline | undefined;
  let gitDir: string | undefined;

  const look = (rel: string, stats: Stats): Seen | undefined => {
    const key = statKey(stats);
    const before = seen.get(rel);
    // The blob is not looked for (a stat more per file): pruning keeps every blob a saved look names.
    if (before?.stat === key) return before;
    const oid = stats.size <= (o.maxBytes ?? MAX_KEPT_BYTES) ? baseline?.blobOf(rel, stats) : undefined;
    if (oid) return { stat: key, blob: { oid, size: stats.size, mode: stats.mode & 0o7777 } };
    const kept = readKept(root, rel, stats, blobs, o.maxBytes);
    return kept ? { stat: key, kept } : undefined;
  };

  /** Fills in what referenced files hold, reading their blobs back with one git call (to name them); each keeps a pointer, not a copy. */
  const resolve = (paths: Iterable<[string, Seen | undefined]>) => {
    const pending = [...paths].filter((p): p is [string, Seen] => p[1]?.kept === undefined && p[1]?.blob !== undefined);
    if (!pending.length) return;
    const bytes = gitDir ? readGitBlobs(gitDir, pending.map(([, s]) => s.blob!)) : new Map<string, Uint8Array>();
    for (const [path, s] of pending) {
      const { oid, size, mode } = s.blob!;
      const got = bytes.get(oid);
      if (!got) {
        // Pruned from the repository since the first look (or git is gone): what it held cannot be known, as for a file too large.
        o.warn?.(`checkpoint: git no longer has the blob ${path} held when the turn began; undo cannot bring it back`);
        s.kept = { kind: "big", size, mode };
        continue;
      }
      s.kept = { kind: "file", hash: blobs.hash(got), size, mode, git: blobs.pointTo({ gitDir: gitDir!, oid }) };
    }
  };

  /** Everything again (the first look, a full queue, a changed .gitignore, no watch); it yields between files. */
  const walkAll = function* (): Generator<undefined, Map<string, Seen>> {
    watch?.close();
    watch = watching ? openChangeWatch() : undefined;
    const next = new Map<string, Seen>();
    for (const [rel, stats] of scope.entries("", addWatch)) {
      const found = look(rel, stats);
      if (found) next.set(rel, found);
      yield;
    }
    return next;
  };
  const walkNow = (): Map<string, Seen> => {
    const walking = walkAll();
    for (;;) {
      const step = walking.next();
      if (step.done) return step.value;
    }
  };
  const addWatch = (abs: string, rel: string) => {
    // Out of watches (a huge tree): every later look walks instead.
    if (watch && !watch.add(abs, rel)) {
      watch.close();
      watch = undefined;
      watching = false;
    }
  };

  const diff = (from: Map<string, Seen>, to: Map<string, Seen>, paths: Iterable<string>): Change[] => {
    const changes: Change[] = [];
    const differing: { path: string; a: Seen | undefined; b: Seen | undefined }[] = [];
    for (const path of paths) {
      const a = from.get(path);
      const b = to.get(path);
      if (a !== b) differing.push({ path, a, b });
    }
    // What a referenced file held is read back from git only now, and only for the files that changed.
    resolve(differing.flatMap(({ path, a, b }): [string, Seen | undefined][] => [[path, a], [path, b]]));
    for (const { path, a, b } of differing) {
      // A file too large to keep has no hash: it changed when its stat did.
      const same = a && b ? (a.kept!.kind === "big" && b.kept!.kind === "big" ? a.stat === b.stat : sameKept(a.kept, b.kept)) : false;
      if (!same) changes.push({ path, ...(a ? { before: a.kept! } : {}), ...(b ? { after: b.kept! } : {}) });
    }
    return changes;
  };
  const all = (a: Map<string, Seen>, b: Map<string, Seen>) => new Set([...a.keys(), ...b.keys()]);


  const refreshByWatch = (w: ChangeWatch): Change[] | undefined => {
    const { entries, subtrees, overflow } = w.drain();
    if (overflow || [...entries, ...subtrees].some((p) => p === ".gitignore" || p.endsWith("/.gitignore"))) return undefined;
    if (entries.size === 0 && subtrees.size === 0) return [];
    const next = new Map(seen);
    const touched = new Set<string>();
    for (const sub of subtrees) {
      const prefix = sub + "/";
      for (const path of seen.keys()) if (path === sub || path.startsWith(prefix)) (touched.add(path), next.delete(path));
      w.forget(sub);
    }
    for (const sub of subtrees) {
      let stats: Stats;
      try {
        stats = lstatSync(join(root, sub));
      } catch {
        continue;
      }
      if (stats.isDirectory() && scope.holds(sub, true)) {
        for (const [rel, s] of scope.entries(sub, addWatch)) {
          const found = look(rel, s);
          touched.add(rel);
          if (found) next.set(rel, found);
        }
      } else if (scope.holds(sub, false)) entries.add(sub);
    }
    for (const path of entries) {
      touched.add(path);
      next.delete(path);
      let stats: Stats;
      try {
        stats = lstatSync(join(root, path));
      } catch {
        continue;
      }
      if (stats.isDirectory()) continue; // a folder's own metadata changed: its entries report themselves
      if (!scope.holds(path, false)) continue;
      const found = look(path, stats);
      if (found) next.set(path, found);
    }
    const changes = diff(seen, next, touched);
    seen = next;
    return changes;
  };

  // The first look lets the event loop run (a model call streams, read-only tools run meanwhile).
  // In a git repository it reads only what git does not hold as HEAD has it.
  baseline = o.git === false ? undefined : await readGitBaseline(root);
  gitDir = baseline?.gitDir;
  const breathe = breather();
  const walking = walkAll();
  for (;;) {
    if (o.signal?.aborted) {
      watch?.close();
      throw new Error("the run ended before the first look at the project did");
    }
    const step = walking.next();
    if (step.done) {
      seen = step.value;
      break;
    }
    await breathe();
  }
  baseline = undefined;

  const save = () => {
    if (!dirty) return;
    saveCache(o, seen);
    dirty = false;
  };
  return {
    refresh() {
      let changes = watch ? refreshByWatch(watch) : undefined;
      if (changes === undefined) {
        scope = projectScope(root, o.exclude);
        const next = walkNow();
        changes = diff(seen, next, all(seen, next));
        seen = next;
      }
      if (changes.length) dirty = true;
      return changes;
    },
    get(path) {
      resolve([[path, seen.get(path)]]);
      return seen.get(path)?.kept;
    },
    big: () => [...seen].filter(([, s]) => s.kept?.kind === "big").map(([path]) => path),
    save,
    close() {
      save();
      watch?.close();
      watch = undefined;
    },
  };
}

function loadCache(o: ProjectStateOptions): Map<string, Seen> {
  let text: string;
  try {
    text = readFileSync(o.cachePath, "utf8");
  } catch {
    return new Map();
  }
  try {
    const json: unknown = JSON.parse(text);
    const parsed = fitsCache(json) ? { success: true as const, data: json as z.infer<typeof cacheSchema> } : cacheSchema.safeParse(json);
    if (parsed.success && parsed.data.root === o.root) return new Map(parsed.data.files.map((f) => [f.p, { stat: f.s, kept: f.k }]));
  } catch {
    // Not JSON: as unreadable as a file that does not fit.
  }
  o.warn?.(`the checkpoint cache ${o.cachePath} is unreadable and is rebuilt (each file is hashed once again)`);
  return new Map();
}

/** What was read is saved; a file known only by reference is not (the next run's first look finds it in git again). */
function saveCache(o: ProjectStateOptions, seen: Map<string, Seen>) {
  const files = [...seen].flatMap(([p, s]) => (s.kept ? [{ p, s: s.stat, k: s.kept }] : []));
  atomicWriteSync(o.cachePath, JSON.stringify({ root: o.root, files }));
}
