import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { hashesOfFile } from "./log-hash.ts";
import { measurePath, readMeasureFile, type MeasureFile } from "./measure-cache.ts";
import { readStateFile, stateOf, statePath, type StateSnapshot } from "./state-snapshot.ts";

/**
 * A log's text still to parse (`tail`: after the state snapshot's lines, or all of it), its size
 * and hash as read (with caches), and the caches beside it that hold for it.
 */
export type LogRead =
  | { kind: "log"; tail: string; size: number; hash?: string; snapshot?: StateSnapshot; measureFile?: MeasureFile }
  | { kind: "missing" }
  | { kind: "error"; message: string };

const failed = (err: unknown): LogRead =>
  (err as NodeJS.ErrnoException).code === "ENOENT" ? { kind: "missing" } : { kind: "error", message: (err as Error).message };

/** The whole log's text, read at once: nothing else waits on it, and decoded as it is read (twice as quick as bytes decoded after). */
export function readWhole(path: string): LogRead {
  try {
    const text = readFileSync(path, "utf8");
    return { kind: "log", tail: text, size: Buffer.byteLength(text) };
  } catch (err) {
    return failed(err);
  }
}

const decoder = new TextDecoder();

/** Bytes [from, to) of a file (fewer if it is shorter). */
export function readRange(path: string, from: number, to: number): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.allocUnsafe(Math.max(0, to - from));
    return bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, from));
  } finally {
    closeSync(fd);
  }
}

/**
 * The log with the caches `build` left beside it (`<id>.state`, `<id>.measures`), each used only
 * if the log's first bytes are still those it names. With a snapshot that holds, its lines are
 * hashed a chunk at a time and only the bytes after them are kept; otherwise the log is read whole.
 */
export function readCached(path: string, build: string): LogRead {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (err) {
    return failed(err);
  }
  const within = <T extends { bytes: number }>(file: T | undefined, bytes: number) => (file && file.bytes <= bytes ? file : undefined);
  const stateFile = within(readStateFile(statePath(path), build), size);
  const measures = within(readMeasureFile(measurePath(path), build), size);
  if (stateFile) {
    const hashes = hashesOfFile(path, [stateFile.bytes, size, ...(measures ? [measures.bytes] : [])]);
    const snapshot = hashes?.get(stateFile.bytes) === stateFile.hash ? stateOf(stateFile) : undefined;
    if (snapshot) {
      const measureFile = measures && hashes!.get(measures.bytes) === measures.hash ? measures : undefined;
      return { kind: "log", tail: decoder.decode(readRange(path, snapshot.bytes, size)), size, hash: hashes!.get(size)!, snapshot, ...(measureFile ? { measureFile } : {}) };
    }
  }
  // No snapshot that holds: the text is read whole, and the log hashed a chunk at a time where the caches need it.
  const whole = readWhole(path);
  if (whole.kind !== "log") return whole;
  // Its size as the file's (held locked, it does not grow meanwhile): bytes the text cannot tell, were any not UTF-8.
  const hashes = hashesOfFile(path, [size, ...(measures ? [measures.bytes] : [])]);
  const measureFile = measures && hashes?.get(measures.bytes) === measures.hash ? measures : undefined;
  return { ...whole, size, ...(hashes?.has(size) ? { hash: hashes.get(size)! } : {}), ...(measureFile ? { measureFile } : {}) };
}
