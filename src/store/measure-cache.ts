import { readFileSync } from "node:fs";
import { z } from "zod";
import type { Message } from "../session/messages.ts";
import type { SessionEvent } from "../session/session-event.ts";
import { compileCheck, type Check } from "../session/compile-check.ts";
import { atomicWriteSync } from "./atomic-write.ts";

/**
 * What a run measured of its history on the wire, kept beside the log (`<id>.measures`) so that the
 * next resume need not serialise every message again to know its size. Only a cache: it names the
 * build that wrote it and the exact log text it was measured from (its length and hash), and
 * anything that does not match — another binary, a log that is not a continuation of that text,
 * an undo since, a damaged file — makes it unknown, and the history is measured as before.
 *
 * The file: a line of JSON (the header), then 32-bit numbers: per message from `from` on, a record
 * (what it holds is `known-measures.ts`'s), its length first; then a JSON array of each message's
 * texts (its lines in a note); then, if its request dropped old steps, the sizes of their notes as
 * JSON. `offsets[k]`: where message from + k's record begins.
 */
export type StoredMeasures = {
  model: string;
  from: number;
  flat: ArrayLike<number>;
  offsets: readonly number[];
  /** Per message, its texts; parsed when first asked for (undefined: the section is not what it should be). */
  texts(): readonly (readonly string[])[] | undefined;
  /** The notes' sizes of the steps a run dropped of these messages; parsed when first asked for (undefined: none, or not what it should be). */
  region(): StoredRegion | undefined;
};
/** What a run stores: the records, flat, each message's texts, and the sizes of the notes its request dropped steps behind. */
export type MeasuresToStore = { model: string; from: number; flat: readonly number[]; texts: readonly (readonly string[])[]; region?: StoredRegion };
/** The log text a run opened (`chars` of it, its first `events` lines): what a cache it writes is measured from. */
export type LogPrefix = { chars: number; hash: string; events: number };

let isHeader: Check | undefined;
const headerSchema = z.object({
  v: z.literal(2),
  build: z.string(),
  model: z.string(),
  chars: z.number().int().nonnegative(),
  hash: z.string(),
  events: z.number().int().nonnegative(),
  from: z.number().int().nonnegative(),
  numbers: z.number().int().nonnegative(),
  texts: z.number().int().nonnegative(),
  check: z.string(),
});
const isArray: Check = (value) => Array.isArray(value);
const regionSchema = z.object({
  drop: z.number().int().positive(),
  end: z.number().int().positive(),
  chars: z.array(z.number().int().positive()),
});
/** The notes standing for the oldest `drop` exchanges on the wire (`drop-exchanges.ts`): of each, in order, its item's characters (its text is told from the texts). They stand for entries [0, end). */
export type StoredRegion = z.infer<typeof regionSchema>;
let isRegion: Check | undefined;

export const measurePath = (logPath: string) => logPath.replace(/\.jsonl$/, ".measures");
// Of a string, its UTF-8: the same text hashes the same however the runtime holds it.
const hashOf = (data: Uint8Array | string): string => Bun.hash(data).toString(36);

/** A whole log's text as a prefix (a log with a torn last line has none: nothing is stored for it). */
export const prefixOf = (log: string, events: number): LogPrefix => ({ chars: log.length, hash: hashOf(log), events });

/** A measures file that holds for a log's first `events` lines: its text is that measured, by this build. */
export type MeasureFile = { model: string; from: number; events: number; numbers: Uint8Array; texts: Uint8Array; region: Uint8Array };

/**
 * The measures file of a log whose text is `log`, when it surely holds for it (read before the log
 * is parsed: the lines it vouches for were checked by this very build, and are not checked again).
 */
export async function readMeasureFile(path: string, build: string, log: string): Promise<MeasureFile | undefined> {
  let file: Uint8Array;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  const cut = file.indexOf(0x0a);
  if (cut < 0) return undefined;
  let header: z.infer<typeof headerSchema>;
  try {
    header = JSON.parse(new TextDecoder().decode(file.subarray(0, cut)));
  } catch {
    return undefined;
  }
  // The schema compiled (zod's own first parse of a schema costs milliseconds in a cold process); anything else, no cache.
  if (!(isHeader ??= compileCheck(headerSchema))(header)) return undefined;
  const body = file.subarray(cut + 1);
  if (header.build !== build || header.numbers % 4 !== 0 || header.numbers + header.texts > body.length || hashOf(body) !== header.check) return undefined;
  // The log must go on from exactly the text measured.
  if (header.chars > log.length || hashOf(header.chars === log.length ? log : log.slice(0, header.chars)) !== header.hash) return undefined;
  const regionAt = header.numbers + header.texts;
  return { model: header.model, from: header.from, events: header.events, numbers: body.subarray(0, header.numbers), texts: body.subarray(header.numbers, regionAt), region: body.subarray(regionAt) };
}

/** The file's measures for the log's events, unless an undo since may have taken back the messages measured. */
export function measuresOf(file: MeasureFile, events: readonly SessionEvent[]): StoredMeasures | undefined {
  if (file.events > events.length) return undefined;
  for (let e = file.events; e < events.length; e++) if (events[e]!.type === "undo") return undefined;
  const flat = new Uint32Array(new Uint8Array(file.numbers).buffer); // a copy of its own: aligned for the view (a Buffer's slice would be a view)
  const offsets: number[] = [];
  let o = 0;
  for (; o < flat.length; o += 1 + flat[o]!) offsets.push(o + 1);
  if (o !== flat.length) return undefined;
  // The file's check hash vouches for every string this build wrote: the texts' shape alone is checked (thousands of lines, in a cold process).
  const texts = parsedOnce(file.texts, () => isArray, (parsed: string[][]) => parsed.length === offsets.length);
  const region = parsedOnce(file.region, () => (isRegion ??= compileCheck(regionSchema)), (parsed: StoredRegion) => parsed.end <= offsets.length);
  return { model: file.model, from: file.from, flat, offsets, texts, region };
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
  const body = Buffer.concat([numbers, texts, Buffer.from(m.region ? JSON.stringify(m.region) : "")]);
  const header = { v: 2, build, model: m.model, chars: prefix.chars, hash: prefix.hash, events: prefix.events, from: m.from, numbers: numbers.length, texts: texts.length, check: hashOf(body) };
  atomicWriteSync(path, Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
}

/** A session's cache: what was stored for it, the messages it opened with, and how to store anew. */
export type SessionMeasures = {
  stored: StoredMeasures | undefined;
  /** A resumed session's history as opened: stored measures hold only for these very messages, and it stores theirs. A new one: none, and it stores its whole log's. */
  opened: readonly Message[] | undefined;
  save(m: MeasuresToStore): void;
};

/** A new log's (a new session, a copy): measures are stored for the whole log as it stands when they are. */
export function newSessionMeasures(logPath: string, build: string): SessionMeasures {
  return {
    stored: undefined,
    opened: undefined,
    save(m) {
      const text = readFileSync(logPath, "utf8");
      let lines = 0;
      for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lines++;
      if (text.endsWith("\n")) writeMeasures(measurePath(logPath), build, prefixOf(text, lines), m);
    },
  };
}

export function sessionMeasures(logPath: string, build: string, read: { text: string; goodBytes?: number; events: readonly SessionEvent[]; state: { messages: readonly Message[] }; measureFile?: MeasureFile }): SessionMeasures {
  const prefix = read.goodBytes === undefined ? prefixOf(read.text, read.events.length) : undefined;
  const stored = read.measureFile && measuresOf(read.measureFile, read.events);
  return {
    stored,
    opened: read.state.messages.slice(),
    save: (m) => {
      if (prefix) writeMeasures(measurePath(logPath), build, prefix, m);
    },
  };
}
