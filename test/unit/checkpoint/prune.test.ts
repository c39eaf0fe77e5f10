import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCheckpointStore } from "../../../src/checkpoint/checkpoint-store.ts";
import { pruneCheckpoints } from "../../../src/checkpoint/prune-checkpoints.ts";
import { emptyRecord } from "../../../src/checkpoint/turn-record.ts";

const base = mkdtempSync(join(tmpdir(), "shiro-prune-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

test("a gone session's records go, and the blobs only they named; what a live record or a saved look names stays", () => {
  const store = createCheckpointStore(join(base, "checkpoints"));
  const sessions = join(base, "sessions");
  mkdirSync(sessions);
  writeFileSync(join(sessions, "kept.jsonl"), "{}\n");
  const put = (text: string) => store.blobs.put(new TextEncoder().encode(text));
  const file = (hash: string) => ({ kind: "file" as const, hash, size: 1, mode: 0o644 });
  const [shared, onlyGone, onlyKept, inLook] = [put("shared"), put("only the gone session's"), put("only the kept one's"), put("a saved look's")];
  store.write({ ...emptyRecord("gone", 1, "/p", "t"), changes: { a: { before: file(shared), after: file(onlyGone) } } });
  store.write({ ...emptyRecord("kept", 1, "/p", "t"), changes: { a: { before: file(shared), after: file(onlyKept) } } });
  mkdirSync(join(store.dir, "projects"), { recursive: true });
  writeFileSync(store.cachePath("/p"), JSON.stringify({ root: "/p", files: [{ p: "x", s: "1", k: file(inLook) }] }));
  const blobPath = (hash: string) => join(store.blobs.dir, hash.slice(0, 2), hash.slice(2));

  // Young blobs are never removed (a run still going may need them).
  expect(pruneCheckpoints(store, sessions)).toEqual({ sessions: 1, blobs: 0, bytes: 0 });
  expect(existsSync(blobPath(onlyGone))).toBe(true);
  const later = pruneCheckpoints(store, sessions, Date.now() + 2 * 60 * 60 * 1000);
  expect(later.blobs).toBe(1);
  expect(later.bytes).toBeGreaterThan(0);
  expect([shared, onlyGone, onlyKept, inLook].map((h) => existsSync(blobPath(h)))).toEqual([true, false, true, true]);
  expect(store.records("gone", () => {}).size).toBe(0);
  expect(store.records("kept", () => {}).size).toBe(1);
});
