import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { learnedWindowsPath, openLearnedWindows } from "../../../src/store/learned-windows.ts";
import { tempDir } from "../../support/run-shiro.ts";

const open = (home: string, endpoint: string, warnings: string[] = [], save = true) => openLearnedWindows({ home, endpoint, save, warn: (l) => warnings.push(l) });
const saved = (home: string) => JSON.parse(readFileSync(learnedWindowsPath(home), "utf8")).windows.map((e: any) => `${e.endpoint} ${e.model} ${e.tokens}`).sort();

test("windows are kept per endpoint and model; a larger one never replaces a smaller", async () => {
  const home = tempDir("windows");
  const a = await open(home, "http://a/v1");
  await a.learn("m", 60_000);
  await a.learn("m", 90_000);
  expect(a.get("m")).toBe(60_000);
  expect((await open(home, "http://a/v1")).get("m")).toBe(60_000);
  expect((await open(home, "http://b/v1")).get("m")).toBeUndefined();
  expect(saved(home)).toEqual(["http://a/v1 m 60000"]);
});

test("two processes learning at once keep both windows (each re-reads under the lock)", async () => {
  const home = tempDir("windows");
  const [a, b] = await Promise.all([open(home, "http://a/v1"), open(home, "http://b/v1")]);
  await Promise.all([a.learn("m", 50_000), b.learn("m", 70_000), a.learn("n", 30_000)]);
  expect(saved(home)).toEqual(["http://a/v1 m 50000", "http://a/v1 n 30000", "http://b/v1 m 70000"]);
});

test("a corrupt file is skipped with one warning and never overwritten; --ephemeral learns in memory only", async () => {
  const home = tempDir("windows");
  writeFileSync(learnedWindowsPath(home), JSON.stringify({ version: 1, windows: [{ endpoint: "x", model: "m", tokens: -5, learnedAt: "" }] }));
  const warnings: string[] = [];
  const corrupt = await open(home, "x", warnings);
  await corrupt.learn("m", 40_000);
  expect(corrupt.get("m")).toBe(40_000);
  expect(warnings).toEqual([expect.stringMatching(/^learned context windows skipped: .*context-windows\.json does not match its schema at windows\.0\.tokens: .*; delete it to start over$/)]);
  expect(readFileSync(learnedWindowsPath(home), "utf8")).toContain('"tokens":-5');

  const fresh = tempDir("windows");
  const ephemeral = await open(fresh, "x", [], false);
  await ephemeral.learn("m", 40_000);
  expect(ephemeral.get("m")).toBe(40_000);
  expect(() => readFileSync(learnedWindowsPath(fresh))).toThrow();
});
