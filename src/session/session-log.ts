import { closeSync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { sessionEventSchema, type SessionEvent } from "./session-event.ts";
import { compileCheck, type Check } from "./compile-check.ts";

let isEvent: Check | undefined;

export type ParsedLog = {
  /** The events of the whole lines before the first bad one (all of them, in a sound log). */
  events: SessionEvent[];
  /** Bytes of the whole lines: a torn last line lies past this. */
  goodBytes: number;
  /** Set when the last line was cut short (a kill -9 mid-write) and dropped. */
  tornLine?: number;
  /** The first line that is not a session event (1-based), when one is not the torn last line: nothing from it on is read. */
  damaged?: { line: number; reason: string };
};

/**
 * A session log's text → its events. Every line must be a valid event. A last line without its
 * newline that does not parse (a write cut short) is dropped and reported as torn; any other bad
 * line is reported as damage, with the events of the lines before it — the valid part. The first
 * `checked` lines are known to be events already (this build checked those very bytes before): parsed, not checked again.
 * `before`: the text goes on from that many lines of the log (a snapshot's): lines are numbered from there, and `goodBytes` counts this text's.
 */
export function parseLog(text: string, checked = 0, before = 0): ParsedLog {
  const events: SessionEvent[] = [];
  let start = 0;
  let line = before;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    line++;
    const raw = text.slice(start, end < 0 ? text.length : end);
    const event = line <= checked ? parseChecked(raw) : parseLine(raw);
    if (end < 0) {
      // No newline: either cut short, or whole but for its newline (the writer adds it before appending).
      if (event.ok) events.push(event.value);
      else return { events, goodBytes: byteLength(text, start), tornLine: line };
      break;
    }
    if (!event.ok) return { events, goodBytes: byteLength(text, start), damaged: { line, reason: event.reason } };
    events.push(event.value);
    start = end + 1;
  }
  return { events, goodBytes: byteLength(text, text.length) };
}

const byteLength = (text: string, chars: number) => Buffer.byteLength(text.slice(0, chars));

function parseChecked(raw: string): ReturnType<typeof parseLine> {
  try {
    return { ok: true, value: JSON.parse(raw) as SessionEvent };
  } catch {
    return parseLine(raw);
  }
}

function parseLine(raw: string): { ok: true; value: SessionEvent } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  // Nearly every line is one shiro wrote: checked without zod, which decides (and explains) the rest.
  if ((isEvent ??= compileCheck(sessionEventSchema))(json)) return { ok: true, value: json as SessionEvent };
  const parsed = sessionEventSchema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, reason: `not a session event (${issue.path.join(".") || "type"}: ${issue.message})` };
}

/**
 * The append end of a log: opened once, each call writes its events as whole lines in one write, in
 * order, before the caller goes on to the side effect they announce. Mode 0600: a session holds the
 * person's code and prompts.
 */
export function openLogWriter(path: string, opts: { truncateTo?: number } = {}) {
  const fd = openSync(path, "a+", 0o600);
  let size: number;
  let needsNewline: boolean;
  try {
    size = fstatSync(fd).size;
    // A torn last line is cut off, and a whole line missing its newline gets one, so appends start clean.
    if (opts.truncateTo !== undefined && size > opts.truncateTo) ftruncateSync(fd, (size = opts.truncateTo));
    needsNewline = endsWithoutNewline(fd, size);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  let bytes = 0;
  return {
    /** Throws what the write threw (a full disk, say) once what it got onto the file is taken back off: the log stays whole lines. */
    append(events: readonly SessionEvent[]): void {
      if (!events.length) return;
      const text = (needsNewline ? "\n" : "") + events.map((e) => JSON.stringify(e)).join("\n") + "\n";
      const buffer = Buffer.from(text);
      try {
        for (let at = 0; at < buffer.length; ) at += writeSync(fd, buffer, at);
      } catch (err) {
        try {
          ftruncateSync(fd, size);
        } catch {
          // Nothing more can be done here; the reader drops a torn last line.
        }
        throw err;
      }
      needsNewline = false;
      size += buffer.length;
      bytes += buffer.length;
    },
    /** Bytes this writer has appended (the benchmark's "bytes written"). */
    get written() {
      return bytes;
    },
    close: () => closeSync(fd),
  };
}

export type LogWriter = ReturnType<typeof openLogWriter>;

function endsWithoutNewline(fd: number, size: number): boolean {
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
}
