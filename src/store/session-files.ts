import { readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { eventsFromV1 } from "./convert-v1.ts";
import { reducerOf, reducerOfPrefix, SessionLogError, type SessionReducer, type SessionState } from "../session/reduce-session.ts";
import type { SessionEvent } from "../session/session-event.ts";
import { parseLog } from "../session/session-log.ts";
import { atomicWrite } from "./atomic-write.ts";
import { readCached, readRange, readWhole } from "./cached-log.ts";
import type { LogPrefix, MeasureFile } from "./measure-cache.ts";
import { parseSchema1File } from "./schema1-file.ts";

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const logPath = (dir: string, id: string) => join(dir, `${id}.jsonl`);
export const legacyPath = (dir: string, id: string) => join(dir, `${id}.json`);

export type ReadLog =
  | {
      ok: true;
      /** The events read: every line's, or with `damaged` those of the lines before the bad one (parsed when first asked for, after a snapshot). */
      readonly events: SessionEvent[];
      state: SessionState;
      /** The log as read, for the caches a run keeps beside it: when read with them, and not cut short or damaged. */
      prefix?: LogPrefix;
      /** Its measures file, when asked for and it holds for these bytes (`measure-cache.ts`). */
      measureFile?: MeasureFile;
      /** The bytes of the state snapshot the state was read from, when there was one (`state-snapshot.ts`). */
      snapshot?: number;
      reducer: SessionReducer;
      goodBytes?: number;
      warnings: string[];
      legacy: boolean;
      /** The first line that cannot be read (1-based) and why: the session is what the lines before it say. */
      damaged?: { line: number; reason: string };
    }
  | { ok: false; kind: "missing" | "corrupt"; message: string };

/** The session ids in `dir`: logs, and schema-1 files not yet converted. */
export async function sessionIds(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const ids = new Set<string>();
  for (const name of names) {
    const id = name.endsWith(".jsonl") ? name.slice(0, -6) : name.endsWith(".json") ? name.slice(0, -5) : "";
    if (ID.test(id)) ids.add(id);
  }
  return [...ids];
}

/**
 * A session's events and state, from its log or, for a session from before logs, from its schema-1
 * file converted in memory. A torn last line is dropped with a warning; anything else wrong is `corrupt`.
 * With `measuresBuild`, the caches that build left beside the log are used when they hold for it
 * (`cached-log.ts`): the state of its first lines (those are then neither parsed nor folded) and the wire measures.
 */
export async function readSessionLog(dir: string, id: string, opts: { measuresBuild?: string } = {}): Promise<ReadLog> {
  if (!ID.test(id)) return { ok: false, kind: "missing", message: `"${id}" is not a session id` };
  const path = logPath(dir, id);
  const read = opts.measuresBuild ? readCached(path, opts.measuresBuild) : readWhole(path);
  if (read.kind === "error") return { ok: false, kind: "corrupt", message: `cannot read ${path}: ${read.message}` };
  if (read.kind === "missing") return readLegacy(dir, id);
  const { snapshot, measureFile } = read;
  const skipped = snapshot?.bytes ?? 0;
  const parsed = parseLog(read.tail, measureFile?.events, snapshot?.events);
  // Created but not yet (or never) written whole: there is no session to read yet.
  if (!snapshot && parsed.events.length === 0 && !parsed.damaged) return { ok: false, kind: "missing", message: `session ${id} has no complete line yet` };
  let damaged = parsed.damaged;
  let reduced: ReturnType<typeof reducerOfPrefix>;
  try {
    reduced = reducerOfPrefix(parsed.events, snapshot?.state);
  } catch (err) {
    if (!(err instanceof SessionLogError)) throw err;
    // Not even the first line stands: there is nothing to go on from.
    const bad = damaged ?? { line: err.line, reason: err.reason };
    return { ok: false, kind: "corrupt", message: `session ${id} cannot be read (${path} line ${bad.line}: ${bad.reason})` };
  }
  const { reducer } = reduced;
  const { state } = reducer;
  if (state.id !== id) return { ok: false, kind: "corrupt", message: `${path} holds session ${state.id}, not ${id}` };
  // An impossible event comes before any unreadable line: the session ends before it.
  if (reduced.damaged) damaged = { line: reduced.damaged.line, reason: reduced.damaged.reason };
  const count = state.events;
  // After a snapshot, the lines it stands for are read and parsed only if asked for (a copy of the session).
  let events: SessionEvent[] | undefined = snapshot ? undefined : parsed.events.slice(0, count);
  const torn = parsed.tornLine !== undefined && !damaged;
  const warnings = torn ? [`the last line of session ${id} was cut short (shiro was stopped mid-write) and is dropped`] : [];
  return {
    ok: true,
    get events() {
      return (events ??= parseLog(decode(readRange(path, 0, read.size))).events.slice(0, count));
    },
    state,
    reducer,
    ...(read.hash !== undefined && !torn && !damaged ? { prefix: { bytes: read.size, hash: read.hash, events: count } } : {}),
    ...(measureFile ? { measureFile } : {}),
    ...(snapshot ? { snapshot: snapshot.bytes } : {}),
    ...(torn ? { goodBytes: skipped + parsed.goodBytes } : {}),
    warnings,
    legacy: false,
    ...(damaged ? { damaged } : {}),
  };
}

async function readLegacy(dir: string, id: string): Promise<ReadLog> {
  const path = legacyPath(dir, id);
  const text = await readText(path);
  if (text.kind === "missing") return { ok: false, kind: "missing", message: `no session ${id} in ${dir}` };
  if (text.kind === "error") return { ok: false, kind: "corrupt", message: `cannot read ${path}: ${text.message}` };
  const parsed = parseSchema1File(text.text, path);
  if (!parsed.ok) return { ok: false, kind: "corrupt", message: parsed.message };
  const events = eventsFromV1(parsed.value);
  try {
    const reducer = reducerOf(events);
    return { ok: true, events, state: reducer.state, reducer, warnings: [], legacy: true };
  } catch (err) {
    if (err instanceof SessionLogError) return { ok: false, kind: "corrupt", message: `${path} cannot be converted (${err.message})` };
    throw err;
  }
}

/**
 * A schema-1 session becomes a log for good: the log is written whole (atomically), then the old file
 * is renamed `<id>.schema1.json` — kept, never lost, and no longer taken for a session.
 */
export async function convertLegacy(dir: string, id: string, events: readonly SessionEvent[]): Promise<void> {
  await atomicWrite(logPath(dir, id), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  await rename(legacyPath(dir, id), join(dir, `${id}.schema1.json`));
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function readText(path: string): Promise<{ kind: "text"; text: string } | { kind: "missing" } | { kind: "error"; message: string }> {
  const read = readWhole(path);
  return read.kind === "log" ? { kind: "text", text: read.tail } : read;
}
