import { deserialize, serialize } from "bun:jsc";
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { SessionState } from "../session/reduce-session.ts";
import { compileCheck, type Check } from "../session/compile-check.ts";
import { atomicWriteSync } from "./atomic-write.ts";
import { readCacheFile } from "./cache-file.ts";
import { hashOf, hashOfLog } from "./log-hash.ts";

/**
 * A long session's state as the first `events` lines of its log reduce to, kept beside the log
 * (`<id>.state`) so that a resume reads those lines' bytes but neither parses nor folds them again.
 * Only a cache: it names the build that wrote it and the exact bytes it stands for (their length and
 * hash), and anything that does not match — another binary, a log that does not go on from those
 * bytes, a damaged file — makes it unknown, and the log is read as before.
 *
 * The file: a line of JSON (the header), then the state in the structured-clone format, which
 * makes the same objects again (Sets, shared references) several times faster than parsing the log.
 */
export type StateSnapshot = { bytes: number; events: number; state: SessionState };

// Below this a log is parsed in a few milliseconds: no file for it.
const SNAPSHOT_FROM_BYTES = 512 * 1024;
// Written again once the lines after it are this share of the log: a resume folds at most that much, and the file is rewritten rarely.
const REWRITE_SHARE = 1 / 8;

const headerSchema = z.object({
  v: z.literal(1),
  build: z.string(),
  bytes: z.number().int().positive(),
  hash: z.string(),
  events: z.number().int().positive(),
  check: z.string(),
});
let isHeader: Check | undefined;

export const statePath = (logPath: string) => logPath.replace(/\.jsonl$/, ".state");

/** A snapshot file this build wrote, whole: it holds for a log whose first `bytes` bytes hash to `hash` (`log-hash.ts`). */
export type StateFile = { bytes: number; hash: string; events: number; body: Uint8Array };

/** The snapshot file at `path`, when it is whole and this build's (which log it holds for is the caller's to check). */
export function readStateFile(path: string, build: string): StateFile | undefined {
  const file = readCacheFile<z.infer<typeof headerSchema>>(path, build, () => (isHeader ??= compileCheck(headerSchema)));
  return file && { bytes: file.header.bytes, hash: file.header.hash, events: file.header.events, body: file.body };
}

/** The state a snapshot file holds (undefined: not what its header says). */
export function stateOf(file: StateFile): StateSnapshot | undefined {
  try {
    const state = deserialize(file.body) as SessionState;
    return state?.events === file.events ? { bytes: file.bytes, events: file.events, state } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a log of `bytes` whole-line bytes is worth a snapshot, given the one it was read with (if any). */
export const snapshotDue = (bytes: number, had: number | undefined): boolean =>
  bytes >= SNAPSHOT_FROM_BYTES && (had === undefined || bytes - had >= bytes * REWRITE_SHARE);

/**
 * Stores `state` as the snapshot of the log at `logPath`, which must hold exactly its `state.events`
 * whole lines (a session that wrote every event it applied); anything else stores nothing.
 */
export function writeStateSnapshot(logPath: string, build: string, state: SessionState): void {
  const log = readFileSync(logPath);
  const bytes = log.lastIndexOf(0x0a) + 1;
  let lines = 0;
  for (let at = log.indexOf(0x0a); at >= 0 && at < bytes; at = log.indexOf(0x0a, at + 1)) lines++;
  if (bytes === 0 || lines !== state.events) return;
  const body = serialize(state, { binaryType: "nodebuffer" });
  const header = { v: 1, build, bytes, hash: hashOfLog(log.subarray(0, bytes)), events: state.events, check: hashOf(body) };
  atomicWriteSync(statePath(logPath), Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
}
