import { mkdir, open, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { atomicWrite } from "./atomic-write.ts";
import { withFileLock } from "./file-lock.ts";
import {
  diskVersionOf,
  newSession,
  nextVersion,
  parseSessionFile,
  parseSessionHeader,
  serialiseSession,
  sessionFromFile,
  type DiskVersion,
  type Session,
  type SessionFileError,
} from "./session-file.ts";
import type { SessionHeader } from "./session-schema.ts";

/** What `/sessions` shows about a session, read without parsing its transcript. */
export type SessionMeta = Omit<SessionHeader, "schemaVersion" | "revision"> & { path: string };

export type LoadError = SessionFileError | { kind: "missing"; path: string; message: string };
export type LoadResult = { ok: true; session: Session } | { ok: false; error: LoadError };

/** The file is not the version this copy came from: writing it would drop another process's turns. */
export type SaveConflict = { kind: "conflict"; id: string; path: string; message: string };
export type SaveResult = { ok: true } | { ok: false; error: SaveConflict };

/** Listing results carry one warning line per file that was skipped; the store itself never prints. */
export type Listed = { sessions: SessionMeta[]; warnings: string[] };

export type Resolution =
  | { kind: "one"; id: string }
  | { kind: "none"; prefix: string }
  | { kind: "ambiguous"; prefix: string; matches: SessionMeta[]; warnings: string[] };

export type SessionStore = {
  dir: string;
  /** A new session in memory; nothing is written until the first save. */
  create(opts: { cwd: string; model: string }): Session;
  /**
   * Atomic (temp file + rename), mode 0600. Concurrent writers never leave a torn file, and never
   * overwrite each other: a file changed since `session.onDisk` is left as it is and a conflict returned.
   */
  save(session: Session): Promise<SaveResult>;
  load(id: string): Promise<LoadResult>;
  /** Newest first. */
  list(): Promise<Listed>;
  newestFor(cwd: string): Promise<{ session?: SessionMeta; warnings: string[] }>;
  /** By full id or unique prefix (case-insensitive). */
  resolvePrefix(prefix: string): Promise<Resolution>;
};

/** A header (cwd and title included) fits in this many bytes; a longer one falls back to a full read. */
const HEADER_BYTES = 16 * 1024;
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const READ_BATCH = 32;

/**
 * One JSON file per session in `dir`. Listing reads only a bounded prefix of each file (the header
 * fields are written first, see session-file.ts) rather than a sidecar index: one file per session
 * means the header and transcript are replaced by the same rename and can never disagree, even
 * with two processes writing.
 */
export function createSessionStore(dir: string): SessionStore {
  const pathOf = (id: string) => join(dir, `${id}.json`);

  async function ids(): Promise<string[]> {
    try {
      return (await readdir(dir)).filter((n) => n.endsWith(".json") && ID.test(n.slice(0, -5))).map((n) => n.slice(0, -5));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
  }

  async function metaOf(id: string): Promise<{ meta: SessionMeta } | { warning: string }> {
    const path = pathOf(id);
    const skip = (message: string) => ({ warning: `skipping a session file: ${message}` });
    const found = await readHeader(path);
    if (found.kind === "missing") return skip(`${path} was removed while listing`);
    if (found.kind === "unreadable") return skip(found.message);
    const header = found.header;
    if (header.id !== id) return skip(`${path} holds session ${header.id}, not ${id}`);
    const { createdAt, updatedAt, cwd, model, title, messageCount, usage, costUsd } = header;
    return { meta: { id, createdAt, updatedAt, cwd, model, title, messageCount, usage, costUsd, path } };
  }

  async function metas(list: string[]): Promise<Listed> {
    const sessions: SessionMeta[] = [];
    const warnings: string[] = [];
    for (let i = 0; i < list.length; i += READ_BATCH) {
      for (const r of await Promise.all(list.slice(i, i + READ_BATCH).map(metaOf))) {
        if ("meta" in r) sessions.push(r.meta);
        else warnings.push(r.warning);
      }
    }
    sessions.sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1));
    return { sessions, warnings };
  }

  return {
    dir,
    create: (opts) => newSession(opts),

    async save(session) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const path = pathOf(session.id);
      // Under the lock, checking the version on disk and replacing the file are one step for every shiro.
      return withFileLock(path, async (): Promise<SaveResult> => {
        const changed = whyNotOurs(await readHeader(path), session);
        if (changed) return { ok: false, error: { kind: "conflict", id: session.id, path, message: changed } };
        const version = nextVersion(session);
        await atomicWrite(path, serialiseSession(session, version));
        session.onDisk = version;
        return { ok: true };
      });
    },

    async load(id) {
      const path = pathOf(id);
      if (!ID.test(id)) return { ok: false, error: { kind: "missing", path, message: `"${id}" is not a session id` } };
      let text: string;
      try {
        text = await Bun.file(path).text();
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "ENOENT") return { ok: false, error: { kind: "missing", path, message: `no session ${id} in ${dir}` } };
        return { ok: false, error: { kind: "corrupt", path, message: `cannot read ${path}: ${(err as Error).message}` } };
      }
      const parsed = parseSessionFile(text, path);
      if (!parsed.ok) return parsed;
      if (parsed.value.id !== id) {
        return { ok: false, error: { kind: "corrupt", path, message: `${path} holds session ${parsed.value.id}, not ${id}` } };
      }
      return { ok: true, session: sessionFromFile(parsed.value) };
    },

    list: async () => metas(await ids()),

    async newestFor(cwd) {
      const { sessions, warnings } = await metas(await ids());
      const here = resolve(cwd);
      return { session: sessions.find((s) => resolve(s.cwd) === here), warnings };
    },

    async resolvePrefix(prefix) {
      const wanted = prefix.trim().toLowerCase();
      const matches = wanted ? (await ids()).filter((id) => id.startsWith(wanted)) : [];
      if (matches.length === 1) return { kind: "one", id: matches[0]! };
      if (matches.length === 0) return { kind: "none", prefix };
      const listed = await metas(matches);
      return { kind: "ambiguous", prefix, matches: listed.sessions, warnings: listed.warnings };
    },
  };
}

type FoundHeader = { kind: "header"; header: SessionHeader } | { kind: "missing" } | { kind: "unreadable"; message: string };

/** A file's header from its prefix, or from the whole file when the prefix is not enough. */
async function readHeader(path: string): Promise<FoundHeader> {
  try {
    const prefix = await readPrefix(path);
    const fromPrefix = parseSessionHeader(prefix.text, path);
    if (fromPrefix.ok) return { kind: "header", header: fromPrefix.value };
    if (fromPrefix.error) return { kind: "unreadable", message: fromPrefix.error.message };
    const full = parseSessionFile(prefix.complete ? prefix.text : await Bun.file(path).text(), path);
    return full.ok ? { kind: "header", header: full.value } : { kind: "unreadable", message: full.error.message };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "unreadable", message: `cannot read ${path} (${(err as Error).message})` };
  }
}

/**
 * Why the file on disk is not the version `session` came from, or undefined when writing it loses
 * nothing: the same version, or no file at all (new, or deleted by the person).
 */
function whyNotOurs(found: FoundHeader, session: Session): string | undefined {
  if (found.kind === "missing") return undefined;
  if (found.kind === "unreadable") return `session ${session.id} could not be read back before saving (${found.message})`;
  const known: DiskVersion | undefined = session.onDisk;
  const onDisk = diskVersionOf(found.header);
  const same = found.header.id === session.id && known?.revision === onDisk.revision && known.updatedAt === onDisk.updatedAt;
  return same ? undefined : `session ${session.id} was changed by another shiro`;
}

/** The first HEADER_BYTES of a file, and whether that was all of it. */
async function readPrefix(path: string): Promise<{ text: string; complete: boolean }> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    return { text: buffer.toString("utf8", 0, bytesRead), complete: bytesRead < HEADER_BYTES };
  } finally {
    await handle.close();
  }
}
