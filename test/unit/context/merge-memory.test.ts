import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore } from "../../../src/store/memory-store.ts";
import type { MemoryEntry } from "../../../src/store/memory-entries.ts";
import { applyMergeAnswer, buildMergePrompt, mergeMemory } from "../../../src/context/merge-memory.ts";

const entries: MemoryEntry[] = [
  { id: "used1", kind: "command", text: "run tests with bun test", createdAt: "2026-01-01T00:00:00.000Z", hits: 3, lastHitAt: "2026-02-01T00:00:00.000Z" },
  { id: "dup1", kind: "fact", text: "the parser is in src/parse.ts", createdAt: "2026-01-02T00:00:00.000Z", hits: 0 },
  { id: "dup2", kind: "fact", text: "parsing code lives in src/parse.ts", createdAt: "2026-01-05T00:00:00.000Z", hits: 0 },
  { id: "solo", kind: "gotcha", text: "CI has no network", createdAt: "2026-01-03T00:00:00.000Z", hits: 0 },
];
const now = new Date("2026-06-01T00:00:00.000Z");
const goodAnswer = JSON.stringify({
  notes: [
    { kind: "fact", text: "The parser lives in src/parse.ts", from: ["dup1", "dup2"] },
    { kind: "gotcha", text: "CI has no network", from: ["solo"] },
  ],
});

const seeded = () => {
  const store = createMemoryStore(mkdtempSync(join(tmpdir(), "shiro-mem-")), mkdtempSync(join(tmpdir(), "shiro-proj-")));
  mkdirSync(join(store.path, ".."), { recursive: true });
  writeFileSync(store.path, JSON.stringify({ version: 1, project: "p", entries }, null, 2));
  return { store, bytes: () => readFileSync(store.path) };
};

describe("applyMergeAnswer", () => {
  test("merges unused notes and keeps recalled ones verbatim", () => {
    const next = applyMergeAnswer(entries, goodAnswer, now)!;
    expect(next[0]).toBe(entries[0]!);
    expect(next[2]).toBe(entries[3]!);
    expect(next[1]).toMatchObject({ kind: "fact", text: "The parser lives in src/parse.ts", hits: 0, createdAt: "2026-01-05T00:00:00.000Z" });
    expect(next).toHaveLength(3);
  });

  test("accepts an answer wrapped in a json code fence", () => {
    expect(applyMergeAnswer(entries, "```json\n" + goodAnswer + "\n```", now)).toHaveLength(3);
  });

  const invalid: [string, string][] = [
    ["garbage", "Sure! Here are the merged notes: ..."],
    ["wrong shape", JSON.stringify({ merged: [] })],
    ["an unused note lost", JSON.stringify({ notes: [{ kind: "fact", text: "parser in src/parse.ts", from: ["dup1", "dup2"] }] })],
    ["a note used twice", JSON.stringify({ notes: [{ kind: "fact", text: "p", from: ["dup1", "dup2"] }, { kind: "gotcha", text: "q", from: ["solo", "dup1"] }] })],
    ["a recalled note merged", JSON.stringify({ notes: [{ kind: "fact", text: "p", from: ["dup1", "dup2", "used1"] }, { kind: "gotcha", text: "q", from: ["solo"] }] })],
    ["an unknown id", JSON.stringify({ notes: [{ kind: "fact", text: "p", from: ["dup1", "dup2", "zzz"] }, { kind: "gotcha", text: "q", from: ["solo"] }] })],
    ["a text over 400 characters", JSON.stringify({ notes: [{ kind: "fact", text: "p".repeat(401), from: ["dup1", "dup2"] }, { kind: "gotcha", text: "q", from: ["solo"] }] })],
    ["a copy of a recalled note", JSON.stringify({ notes: [{ kind: "fact", text: "Run tests with bun test", from: ["dup1", "dup2"] }, { kind: "gotcha", text: "q", from: ["solo"] }] })],
    ["an unknown kind", JSON.stringify({ notes: [{ kind: "idea", text: "p", from: ["dup1", "dup2"] }, { kind: "gotcha", text: "q", from: ["solo"] }] })],
  ];
  for (const [what, answer] of invalid) {
    test(`rejects ${what}`, () => expect(applyMergeAnswer(entries, answer, now)).toBeNull());
  }
});

describe("mergeMemory (/memory)", () => {
  test("the prompt shows recalled notes as context and the rest with their ids", async () => {
    const { store } = seeded();
    let prompt = "";
    await mergeMemory(store, async (p) => ((prompt = p), null));
    expect(prompt).toContain("- (command) run tests with bun test");
    expect(prompt).toContain('{"id":"dup1","kind":"fact","text":"the parser is in src/parse.ts"}');
    expect(prompt).not.toContain('"id":"used1"');
    expect(prompt).toBe(buildMergePrompt(entries));
  });

  test("a garbage answer leaves the file byte-identical", async () => {
    const { store, bytes } = seeded();
    const before = bytes();
    const outcome = await mergeMemory(store, async () => "I merged them for you!");
    expect(outcome).toEqual({ status: "unchanged", message: "The model's answer was not valid merge JSON; memory was left as it was." });
    expect(bytes().equals(before)).toBe(true);
    expect(await mergeMemory(store, async () => null)).toMatchObject({ status: "unchanged" });
    expect(bytes().equals(before)).toBe(true);
  });

  test("a valid answer is written, with the recalled entry exactly as it was", async () => {
    const { store } = seeded();
    expect(await mergeMemory(store, async () => goodAnswer, now)).toEqual({ status: "merged", before: 4, after: 3 });
    const saved: MemoryEntry[] = JSON.parse(readFileSync(store.path, "utf8")).entries;
    expect(saved.find((e) => e.id === "used1")).toEqual(entries[0]!);
    expect(saved.map((e) => e.text).sort()).toEqual(["CI has no network", "The parser lives in src/parse.ts", "run tests with bun test"]);
  });

  test("nothing is asked when fewer than two notes were never recalled", async () => {
    const { store } = seeded();
    await store.recall("parse");
    let asked = false;
    const outcome = await mergeMemory(store, async () => ((asked = true), goodAnswer));
    expect(asked).toBe(false);
    expect(outcome).toMatchObject({ status: "unchanged" });
  });
});
