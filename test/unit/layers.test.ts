import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { REPO } from "../support/binary.ts";
import { fileCycles, importsOf, layerViolations, type Import } from "../support/layers.ts";

const imports = importsOf(join(REPO, "src"));

describe("the house's layers", () => {
  test("every import of src/ points down the documented floors (docs/development.md)", () => {
    expect(imports.length).toBeGreaterThan(500);
    expect(layerViolations(imports)).toEqual([]);
  });
  test("no file imports itself round a loop, types included", () => {
    expect(fileCycles(imports)).toEqual([]);
  });
  test("a planted wrong-way import fails, naming the file, the line and the rule", () => {
    const planted: Import[] = [...imports, { file: "session/messages.ts", line: 3, target: "loop/run.ts" }, { file: "print/run-print.ts", line: 9, target: "cli/args.ts" }];
    expect(layerViolations(planted)).toEqual([
      "src/session/messages.ts:3 imports src/loop/run.ts: session/ (floor 0) may import only lower floors, and loop/ is on floor 6",
      "src/print/run-print.ts:9 imports src/cli/args.ts: print/ (floor 9) may import only lower floors, and cli/ is on floor 9 (the same floor: rooms on one floor stay apart)",
    ]);
    const loop: Import[] = [{ file: "tools/a.ts", line: 1, target: "tools/b.ts" }, { file: "tools/b.ts", line: 1, target: "tools/a.ts" }];
    expect(fileCycles(loop)).toEqual([["tools/a.ts", "tools/b.ts"]]);
    expect(layerViolations([{ file: "newroom/x.ts", line: 1, target: "session/messages.ts" }])).toEqual([
      "src/newroom/x.ts: newroom/ is on no floor (add it to FLOORS in test/support/layers.ts and to docs/development.md)",
    ]);
  });
});
