import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/binary.ts";
import { ARCHITECTURE, fileCycles, floorsOf, FLOORS, importsOf, layerViolations, type Import } from "../../support/layers.ts";

const imports = importsOf(join(REPO, "src"));

describe("the house's layers, as docs/architecture.md draws them", () => {
  test("every folder and top-level file of src/ has a floor in the doc's table", () => {
    const rooms = readdirSync(join(REPO, "src")).filter((name) => !name.startsWith("."));
    expect(rooms.filter((room) => !FLOORS.some((floor) => floor.includes(room)))).toEqual([]);
    expect(FLOORS.flat().filter((room) => !rooms.includes(room))).toEqual([]);
    // Drivers over agents over services: the order the doc promises.
    const floor = (room: string) => FLOORS.findIndex((rooms) => rooms.includes(room));
    expect(floor("session")).toBe(0);
    expect(floor("agent")).toBe(floor("services") + 1);
    expect(floor("repl")).toBe(floor("print"));
    expect(floor("repl")).toBeGreaterThan(floor("agent"));
  });
  test("every import of src/ points down the floors", () => {
    expect(imports.length).toBeGreaterThan(500);
    expect(layerViolations(imports)).toEqual([]);
  });
  test("no file imports itself round a loop, types included", () => {
    expect(fileCycles(imports)).toEqual([]);
  });
  test("the rule is the doc's: a table with services above agents makes today's imports wrong", () => {
    const doc = readFileSync(ARCHITECTURE, "utf8");
    const swapped = floorsOf(doc.replace(/^\| 7 \| `services\/`/m, "| 8 | `services/`").replace(/^\| 8 \| `agent\/`/m, "| 7 | `agent/`"));
    const wrong = layerViolations(imports, swapped);
    expect(wrong.length).toBeGreaterThan(0);
    expect(wrong.every((line) => /^src\/agent\/.+ imports src\/services\/.+: agent\/ \(floor 7\) may import only lower floors, and services\/ is on floor 8$/.test(line))).toBe(true);
  });
  test("a planted wrong-way import fails, naming the file, the line and the rule", () => {
    const planted: Import[] = [...imports, { file: "session/messages.ts", line: 3, target: "loop/run.ts" }, { file: "print/run-print.ts", line: 9, target: "repl/repl.ts" }, { file: "services/services.ts", line: 4, target: "agent/agent.ts" }];
    expect(layerViolations(planted)).toEqual([
      "src/session/messages.ts:3 imports src/loop/run.ts: session/ (floor 0) may import only lower floors, and loop/ is on floor 6",
      "src/print/run-print.ts:9 imports src/repl/repl.ts: print/ (floor 10) may import only lower floors, and repl/ is on floor 10 (the same floor: rooms on one floor stay apart)",
      "src/services/services.ts:4 imports src/agent/agent.ts: services/ (floor 7) may import only lower floors, and agent/ is on floor 8",
    ]);
    const loop: Import[] = [{ file: "tools/a.ts", line: 1, target: "tools/b.ts" }, { file: "tools/b.ts", line: 1, target: "tools/a.ts" }];
    expect(fileCycles(loop)).toEqual([["tools/a.ts", "tools/b.ts"]]);
    expect(layerViolations([{ file: "newroom/x.ts", line: 1, target: "session/messages.ts" }])).toEqual([
      "src/newroom/x.ts: newroom/ is on no floor (give it a row in the floors of docs/architecture.md)",
    ]);
  });
});
