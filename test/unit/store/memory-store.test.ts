import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore, memoryFilePath } from "../../../src/store/memory-store.ts";
import type { MemoryEntry } from "../../../src/store/memory-entries.ts";
import { memorySection, MEMORY_SECTION_HEADER } from "../../../src/context/memory-section.ts";

const setup = () => {
  const home = mkdtempSync(join(tmpdir(), "shiro-mem-"));
  const project = mkdtempSync(join(tmpdir(), "shiro-proj-"));
  return { home, project, store: createMemoryStore(home, project) };
};
const onDisk = (path: string): MemoryEntry[] => JSON.parse(readFileSync(path, "utf8")).entries;
const entry = (text: string, hits: number, createdAt: string, lastHitAt?: string): MemoryEntry => ({
  id: `id-${text}`,
  kind: "fact",
  text,
  createdAt,
  hits,
  ...(lastHitAt ? { lastHitAt } : {}),
});

describe("memory store", () => {
  test("lives at $SHIRO_HOME/memory/<first 16 hex of sha256(project path)>.json", () => {
    const { home, project, store } = setup();
    const hash = new Bun.CryptoHasher("sha256").update(project).digest("hex").slice(0, 16);
    expect(store.path).toBe(join(home, "memory", `${hash}.json`));
    expect(memoryFilePath(home, `${project}/./`)).toBe(store.path);
  });

  test("add writes the entry to disk with its fields", async () => {
    const { store } = setup();
    const result = await store.add("command", "  run tests with bun test  ");
    expect(result.ok).toBe(true);
    const [saved] = onDisk(store.path);
    expect(saved).toMatchObject({ kind: "command", text: "run tests with bun test", hits: 0 });
    expect(Date.parse(saved!.createdAt)).toBeGreaterThan(Date.now() - 5_000);
    expect(saved!.lastHitAt).toBeUndefined();
  });

  test("a duplicate differing only in case and spacing is refused", async () => {
    const { store } = setup();
    await store.add("fact", "The API lives in src/api");
    const again = await store.add("gotcha", "the  api LIVES in   src/api ");
    expect(again).toEqual({ ok: false, message: "Already recorded: The API lives in src/api" });
    expect(onDisk(store.path)).toHaveLength(1);
  });

  test("text over 400 characters or over several lines is refused; exactly 400 is kept", async () => {
    const { store } = setup();
    const long = await store.add("fact", "x".repeat(401));
    expect(long).toEqual({ ok: false, message: "text is 401 characters; the limit is 400. Shorten it to one self-contained line." });
    expect((await store.add("fact", "two\nlines")).ok).toBe(false);
    expect(existsSync(store.path)).toBe(false);
    expect((await store.add("fact", "y".repeat(400))).ok).toBe(true);
  });

  test("the store holds at most 300 entries", async () => {
    const { store } = setup();
    const full = Array.from({ length: 300 }, (_, i) => entry(`note ${i}`, 0, "2026-01-01T00:00:00.000Z"));
    mkdirSync(join(store.path, ".."), { recursive: true });
    writeFileSync(store.path, JSON.stringify({ version: 1, project: "p", entries: full }));
    const result = await store.add("fact", "one more");
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.message).toStartWith("Memory is full (300 entries).");
    expect(onDisk(store.path)).toHaveLength(300);
  });

  test("recall needs every term and counts a hit on disk for each match", async () => {
    const { store } = setup();
    await store.add("command", "run the tests with bun test");
    await store.add("fact", "tests live in test/unit");
    await store.add("fact", "the build uses bun build --compile");
    const { matches, total } = await store.recall("TESTS bun");
    expect(total).toBe(1);
    expect(matches.map((e) => e.text)).toEqual(["run the tests with bun test"]);
    await store.recall("bun");
    const hits = Object.fromEntries(onDisk(store.path).map((e) => [e.text, e.hits]));
    expect(hits).toEqual({ "run the tests with bun test": 2, "tests live in test/unit": 0, "the build uses bun build --compile": 1 });
    expect(onDisk(store.path).find((e) => e.hits === 2)!.lastHitAt).toBeString();
  });

  test("forget removes every entry containing the text and returns them", async () => {
    const { store } = setup();
    await store.add("fact", "uses postgres 15");
    await store.add("gotcha", "Postgres needs the uuid extension");
    await store.add("fact", "the CLI is in src/cli");
    expect((await store.forget("postgres")).length).toBe(2);
    expect((await store.forget("nothing like this")).length).toBe(0);
    expect(onDisk(store.path).map((e) => e.text)).toEqual(["the CLI is in src/cli"]);
  });

  test("top orders by hits, then by most recent use or creation", async () => {
    const { store } = setup();
    const entries = [
      entry("old unused", 0, "2026-01-01T00:00:00.000Z"),
      entry("new unused", 0, "2026-03-01T00:00:00.000Z"),
      entry("used once long ago", 1, "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"),
      entry("used once lately", 1, "2026-01-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"),
      entry("used often", 5, "2025-01-01T00:00:00.000Z", "2025-01-02T00:00:00.000Z"),
      ...Array.from({ length: 20 }, (_, i) => entry(`filler ${i}`, 0, "2025-06-01T00:00:00.000Z")),
    ];
    mkdirSync(join(store.path, ".."), { recursive: true });
    writeFileSync(store.path, JSON.stringify({ version: 1, project: "p", entries }));
    const top = await store.top(20);
    expect(top).toHaveLength(20);
    expect(top.slice(0, 5).map((e) => e.text)).toEqual(["used often", "used once lately", "used once long ago", "new unused", "old unused"]);

    const section = memorySection(await store.list());
    const lines = section.split("\n");
    expect(lines[0]).toBe(MEMORY_SECTION_HEADER);
    expect(lines.slice(1, 4)).toEqual(["- (fact) used often", "- (fact) used once lately", "- (fact) used once long ago"]);
    expect(lines).toHaveLength(21);
    expect(memorySection([])).toBe("");
  });

  test("a corrupt file reads as empty with a warning, and no mutation overwrites it", async () => {
    const { store } = setup();
    mkdirSync(join(store.path, ".."), { recursive: true });
    const garbage = '{"version":1,"entries":[{"text": "half';
    writeFileSync(store.path, garbage);
    const snapshot = await store.read();
    expect(snapshot.entries).toEqual([]);
    expect(snapshot.warning).toStartWith(`project memory ignored: ${store.path} is not valid JSON`);
    expect(snapshot.warning).toEndWith("Fix or delete the file; shiro will not overwrite it.");
    await expect(store.add("fact", "new note")).rejects.toThrow("project memory is unreadable, so nothing was changed");
    await expect(store.forget("x")).rejects.toThrow("unreadable");
    await expect(store.recall("x")).rejects.toThrow("unreadable");
    expect(readFileSync(store.path, "utf8")).toBe(garbage);
    // A file of the wrong shape is treated the same way.
    writeFileSync(store.path, JSON.stringify({ version: 1, project: "p", entries: [{ text: "no kind" }] }));
    expect((await store.read()).warning).toContain("does not match its schema at entries.0");
  });

  test("replaceAll keeps notes added and hits counted since the basis, and drops notes forgotten since", async () => {
    const { store } = setup();
    await store.add("fact", "a");
    await store.add("fact", "b");
    await store.add("fact", "c");
    const basis = await store.list();
    await store.add("fact", "added meanwhile");
    await store.forget("b");
    await store.recall("c");
    const merged = basis.map((e) => (e.text === "a" ? { ...e, text: "a merged" } : e));
    await store.replaceAll(merged, basis);
    const after = onDisk(store.path);
    expect(after.map((e) => [e.text, e.hits])).toEqual([["a merged", 0], ["c", 1], ["added meanwhile", 0]]);
  });
});
