import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSessionIndex, type IndexEntry } from "../../../src/store/session-index.ts";
import { tempDir } from "../../support/run-shiro.ts";

const entry = (id: string, cwd: string, updatedAt: string): IndexEntry => ({
  id, cwd, model: "gpt-5", title: id, createdAt: updatedAt, updatedAt, messageCount: 2,
  usage: { inputTokens: 1, cachedTokens: 0, outputTokens: 1, reasoningTokens: 0 }, costUsd: 0,
});

test("each folder's sessions in a file of their own, newest first; a re-put replaces; all() merges every folder", async () => {
  const index = createSessionIndex(tempDir("index"));
  expect((await index.forFolder("/p")).missing).toBe(true);
  await index.put(entry("a", "/p", "2026-12-01T10:00:00Z"));
  await index.put(entry("b", "/p", "2026-12-01T11:00:00Z"));
  await index.put(entry("c", "/q", "2026-12-01T12:00:00Z"));
  await index.put(entry("a", "/p", "2026-12-01T13:00:00Z"));
  expect((await index.forFolder("/p")).entries.map((e) => e.id)).toEqual(["a", "b"]);
  expect((await index.forFolder("/q/")).entries.map((e) => e.id)).toEqual(["c"]);
  expect((await index.all()).entries.map((e) => e.id)).toEqual(["a", "c", "b"]);
});

test("two processes' puts at once both land (the lock)", async () => {
  const dir = tempDir("index-race");
  const [one, two] = [createSessionIndex(dir), createSessionIndex(dir)];
  await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).put(entry(`s${i}`, "/p", `2026-12-01T10:00:${String(i).padStart(2, "0")}Z`))));
  expect((await one.forFolder("/p")).entries).toHaveLength(20);
});

test("a corrupt index is skipped with a warning, not trusted", async () => {
  const dir = tempDir("index-bad");
  const index = createSessionIndex(dir);
  await index.put(entry("a", "/p", "2026-12-01T10:00:00Z"));
  const [name] = new Bun.Glob("*.json").scanSync(index.dir);
  writeFileSync(join(index.dir, name!), "{broken");
  const read = await index.forFolder("/p");
  expect(read.entries).toEqual([]);
  expect(read.warnings[0]).toMatch(/^skipping a session index: .* is not valid JSON/);
});
