import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import type { Message } from "../session/messages.ts";
import type { SessionState } from "../session/reduce-session.ts";
import { compileCheck, type Check } from "../session/compile-check.ts";
import { atomicWriteSync } from "./atomic-write.ts";
import { readCacheFile } from "./cache-file.ts";
import { hashOf, hashOfLog } from "./log-hash.ts";
import { snapshotDue, writeStateSnapshot } from "./state-snapshot.ts";

/**
 * What a run measured of its history on the wire, kept beside the log (`<id>.measures`) so that the
 * next resume need not serialise every message again to know its size. Only a cache: it names the
 * build that wrote it and the exact log bytes it was measured from (their length and hash), and
 * anything that does not match — another binary, a log that is not a continuation of those bytes,
 * an undo since, a damaged file — makes it unknown, and the history is measured as before.
 *
 * The file: a line of JSON (the header), then 32-bit numbers: per message from `from` on, a record
 * (what it holds is `known-measures.ts`'s), its length first; then a JSON array of each message's
 * texts (its lines in a note); then, if its request dropped old steps, that region as JSON (the
 * size of each of its items, which of them are notes) and its items' JSON as the request sent them.
 * `offsets[k]`: where message from + k's record begins.
 */
export type StoredMeasures = {
  model: string;
  from: number;
  flat: ArrayLike<number>;
  offsets: readonly number[];
  /** Per message, its texts; parsed when first asked for (undefined: the section is not what it should be). */
  texts(): readonly (readonly string[])[] | undefined;
  /** The region of the steps a run dropped of these messages; parsed when first asked for (undefined: none, or not what it should be). */
  region(): StoredRegion | undefined;
  /** That region's items, as the UTF-8 JSON of an array (undefined: none). */
  regionItems(): Uint8Array | undefined;
};
/** What a run stores: the records, flat, each message's texts, and the region its request dropped steps behind, with the items' JSON. */
export type MeasuresToStore = { model: string; from: number; flat: readonly number[]; texts: readonly (readonly string[])[]; region?: StoredRegion & { items: Uint8Array } };
/** The log a run opened (`bytes` of it, its first `events` lines): what a cache it writes is measured from. */
export type LogPrefix = { bytes: number; hash: string; events: number };

let isHeader: Check | undefined;
const headerSchema = z.object({
  v: z.literal(3),
  build: z.string(),
  model: z.string(),
  bytes: z.number().int().nonnegative(),
  hash: z.string(),
  events: z.number().int().nonnegative(),
  from: z.number().int().nonnegative(),
  numbers: z.number().int().nonnegative(),
  texts: z.number().int().nonnegative(),
  region: z.number().int().nonnegative(),
  check: z.string(),
});
const isArray: Check = (value) => Array.isArray(value);
/** What the oldest `drop` exchanges left on the wire (`drop-exchanges.ts`), standing for entries [0, end): each item's characters, in order, and which items are the notes. */
export type StoredRegion = { drop: number; end: number; chars: number[]; notes: number[] };
// Checked by hand: a compiled schema's first use costs more than the thousands of numbers it checks.
const count = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0;
const isRegion: Check = (v) => {
  const r = v as StoredRegion;
  return typeof v === "object" && v !== null && count(r.drop) && r.drop > 0 && count(r.end) && r.end > 0 && Array.isArray(r.chars) && r.chars.every((c) => count(c) && c > 0) && Array.isArray(r.notes) && r.notes.every((n) => count(n) && n < r.chars.length);
};

export const measurePath = (logPath: string) => logPath.replace(/\.jsonl$/, ".measures");

/** A whole log's bytes as a prefix (a log with a torn last line has none: nothing is stored for it). */
export const prefixOf = (log: Uint8Array, events: number): LogPrefix => ({ bytes: log.length, hash: hashOfLog(log), events });

/**
 * A measures file this build wrote, whole: it holds for a log whose first `bytes` bytes hash to `hash`
 * (`log-hash.ts`), and vouches for that log's first `events` lines (checked by this very build, and
 * not checked again).
 */
export type MeasureFile = { bytes: number; hash: string; model: string; from: number; events: number; numbers: Uint8Array; texts: Uint8Array; region: Uint8Array; items: Uint8Array };

/** The measures file at `path`, when it is whole and this build's (which log it holds for is the caller's to check: `bytes`, `hash`). */
export function readMeasureFile(path: string, build: string): MeasureFile | undefined {
  // The schema compiled (zod's own first parse of a schema costs milliseconds in a cold process); anything else, no cache.
  const file = readCacheFile<z.infer<typeof headerSchema>>(path, build, () => (isHeader ??= compileCheck(headerSchema)));
  if (!file) return undefined;
  const { header, body } = file;
  if (header.numbers % 4 !== 0 || header.numbers + header.texts + header.region > body.length) return undefined;
  const regionAt = header.numbers + header.texts;
  const itemsAt = regionAt + header.region;
  return { bytes: header.bytes, hash: header.hash, model: header.model, from: header.from, events: header.events, numbers: body.subarray(0, header.numbers), texts: body.subarray(header.numbers, regionAt), region: body.subarray(regionAt, itemsAt), items: body.subarray(itemsAt) };
}

/** The file's measures for the log a state was read from, unless an undo since may have taken back the messages measured. */
export function measuresOf(file: MeasureFile, log: Pick<SessionState, "events" | "undoneAt">): StoredMeasures | undefined {
  if (file.events > log.events || (log.undoneAt ?? 0) > file.events) return undefined;
  const flat = new Uint32Array(new Uint8Array(file.numbers).buffer); // a copy of its own: aligned for the view (a Buffer's slice would be a view)
  const offsets: number[] = [];
  let o = 0;
  for (; o < flat.length; o += 1 + flat[o]!) offsets.push(o + 1);
  if (o !== flat.length) return undefined;
  // The file's check hash vouches for every string this build wrote: the texts' shape alone is checked (thousands of lines, in a cold process).
  const texts = parsedOnce(file.texts, () => isArray, (parsed: string[][]) => parsed.length === offsets.length);
  const region = parsedOnce(file.region, () => isRegion, (parsed: StoredRegion) => parsed.end <= offsets.length);
  const regionItems = () => (file.items.length ? file.items : undefined);
  return { model: file.model, from: file.from, flat, offsets, texts, region, regionItems };
}

/** A section's JSON, parsed and checked when first asked for: undefined when empty or not what it should be. */
function parsedOnce<T>(bytes: Uint8Array, check: () => Check, holds: (parsed: T) => boolean): () => T | undefined {
  let value: T | undefined | null = null;
  return () => {
    if (value !== null) return value;
    value = undefined;
    try {
      const parsed: unknown = bytes.length ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
      if (parsed !== undefined && check()(parsed) && holds(parsed as T)) value = parsed as T;
    } catch {
      // Not JSON: as if there were none.
    }
    return value;
  };
}

/** Stores measures of the messages the log's `prefix` holds, replacing any before (at a session's close, when a process may exit next: synchronous). */
export function writeMeasures(path: string, build: string, prefix: LogPrefix, m: MeasuresToStore): void {
  const numbers = new Uint8Array(Uint32Array.from(m.flat).buffer);
  const texts = Buffer.from(JSON.stringify(m.texts));
  const { items, ...region } = m.region ?? { items: new Uint8Array() };
  const regionJson = Buffer.from(m.region ? JSON.stringify(region) : "");
  const body = Buffer.concat([numbers, texts, regionJson, items]);
  const header = { v: 3, build, model: m.model, bytes: prefix.bytes, hash: prefix.hash, events: prefix.events, from: m.from, numbers: numbers.length, texts: texts.length, region: regionJson.length, check: hashOf(body) };
  atomicWriteSync(path, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
}

/** A session's cache: what was stored for it, the messages it opened with, and how to store anew. */
export type SessionMeasures = {
  stored: StoredMeasures | undefined;
  /** A resumed session's history as opened: stored measures hold only for these very messages, and it stores theirs. A new one: none, and it stores its whole log's. */
  opened: readonly Message[] | undefined;
  save(m: MeasuresToStore): void;
  /** At the close of a session that wrote every event it applied: its state, kept for the next resume when the log is long (`state-snapshot.ts`). */
  keepState(state: SessionState): void;
};

/** A new log's (a new session, a copy): measures are stored for the whole log as it stands when they are. */
export function newSessionMeasures(logPath: string, build: string): SessionMeasures {
  return {
    stored: undefined,
    opened: undefined,
    save(m) {
      const log = readFileSync(logPath);
      let lines = 0;
      for (let at = log.indexOf(0x0a); at >= 0; at = log.indexOf(0x0a, at + 1)) lines++;
      if (log.at(-1) === 0x0a) writeMeasures(measurePath(logPath), build, prefixOf(log, lines), m);
    },
    keepState: (state) => keepState(logPath, build, state, undefined),
  };
}

/** A resumed session's: `prefix`, the log as read (none with a torn last line); `snapshot`, the bytes of the state snapshot it was read with, if any. */
export function sessionMeasures(logPath: string, build: string, read: { prefix?: LogPrefix; state: SessionState; measureFile?: MeasureFile; snapshot?: number }): SessionMeasures {
  const { prefix, state } = read;
  const stored = read.measureFile && measuresOf(read.measureFile, state);
  return {
    stored,
    opened: state.messages.slice(),
    save: (m) => {
      if (prefix) writeMeasures(measurePath(logPath), build, prefix, m);
    },
    keepState: (now) => keepState(logPath, build, now, read.snapshot),
  };
}

function keepState(logPath: string, build: string, state: SessionState, had: number | undefined) {
  try {
    if (snapshotDue(statSync(logPath).size, had)) writeStateSnapshot(logPath, build, state);
  } catch {
    // Only a cache: the next resume reads the log.
  }
}
