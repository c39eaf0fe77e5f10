import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/binary.ts";

test("every path AGENTS.md names exists", () => {
  const text = readFileSync(join(REPO, "AGENTS.md"), "utf8");
  const paths = [...text.matchAll(/`((?:src|test|docs|bench)\/[^`\s]+|README\.md)`/g)].map((m) => m[1]!);
  expect(paths.length).toBeGreaterThan(20);
  expect(paths.filter((p) => !existsSync(join(REPO, p)))).toEqual([]);
});
