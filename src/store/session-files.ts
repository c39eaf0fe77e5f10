import { readFileSync } from "node:fs";
import { readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { eventsFromV1 } from "./convert-v1.ts";
import { reducerOf, reducerOfPrefix, SessionLogError, type SessionReducer, type SessionState } from "../session/reduce-session.ts";
import type { SessionEvent } from "../session/session-event.ts";
import { parseLog } from "../session/session-log.ts";
import { atomicWrite } from "./atomic-write.ts";
import { measurePath, readMeasureFile, type MeasureFile } from "./measure-cache.ts";
import { readStateSnapshot, statePath } from "./state-snapshot.ts";
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
      /** The log's bytes as read (a schema-1 file's: none). */
      bytes?: Uint8Array;
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
 * With `measuresBuild`, the caches that build left beside the log are used when they hold for it:
 * the state of its first lines (those are then neither parsed nor folded) and the wire measures.
 */
export async function readSessionLog(dir: string, id: string, opts: { measuresBuild?: string } = {}): Promise<ReadLog> {
  if (!ID.test(id)) return { ok: false, kind: "missing", message: `"${id}" is not a session id` };
  const path = logPath(dir, id);
  const read = readBytes(path);
  if (read.kind === "error") return { ok: false, kind: "corrupt", message: `cannot read ${path}: ${read.message}` };
  if (read.kind === "missing") return readLegacy(dir, id);
  const { bytes } = read;
  const build = opts.measuresBuild;
  const snapshot = build ? readStateSnapshot(statePath(path), build, bytes) : undefined;
  const measureFile = build ? await readMeasureFile(measurePath(path), build, bytes) : undefined;
  const skipped = snapshot?.bytes ?? 0;
  const decode = (from: number) => new TextDecoder().decode(bytes.subarray(from));
  const parsed = parseLog(decode(skipped), measureFile?.events, snapshot?.events);
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
  // After a snapshot, the lines it stands for are parsed only if asked for (a copy of the session).
  let events: SessionEvent[] | undefined = snapshot ? undefined : parsed.events.slice(0, count);
  const torn = parsed.tornLine !== undefined && !damaged;
  const warnings = torn ? [`the last line of session ${id} was cut short (shiro was stopped mid-write) and is dropped`] : [];
  return {
    ok: true,
    get events() {
      return (events ??= parseLog(decode(0)).events.slice(0, count));
    },
    state,
    reducer,
    bytes,
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

// Read at once: nothing else waits on it, and an async read of a long log costs half as much again.
function readBytes(path: string): { kind: "bytes"; bytes: Uint8Array } | { kind: "missing" } | { kind: "error"; message: string } {
  try {
    return { kind: "bytes", bytes: readFileSync(path) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "error", message: (err as Error).message };
  }
}

async function readText(path: string): Promise<{ kind: "text"; text: string } | { kind: "missing" } | { kind: "error"; message: string }> {
  const read = readBytes(path);
  return read.kind === "bytes" ? { kind: "text", text: new TextDecoder().decode(read.bytes) } : read;
}
