import { describe, expect, test } from "bun:test";
import type { Kept } from "../../../src/checkpoint/kept.ts";
import { planUndo } from "../../../src/checkpoint/plan-undo.ts";
import { emptyRecord, tally, withChanges, type TurnRecord } from "../../../src/checkpoint/turn-record.ts";

const f = (hash: string, mode = 0o644): Kept => ({ kind: "file", hash: hash.padEnd(64, "0"), size: 1, mode });
const rec = (turn: number, changes: TurnRecord["changes"]): TurnRecord => ({ ...emptyRecord("s", turn, "/p", "t"), changes });

describe("what a turn changed", () => {
  test("a path keeps the state the turn found it in, however often it changes; changed back, it drops out", () => {
    let r = emptyRecord("s", 1, "/p", "t");
    r = withChanges(r, [{ path: "a", before: f("1"), after: f("2") }, { path: "new", after: f("9") }]);
    r = withChanges(r, [{ path: "a", before: f("2"), after: f("3") }]);
    expect(r.changes.a).toEqual({ before: f("1"), after: f("3") });
    r = withChanges(r, [{ path: "a", before: f("3"), after: f("1") }, { path: "new", before: f("9") }]);
    expect(r.changes).toEqual({});
  });
  test("a mode change alone is a change", () => {
    const r = withChanges(emptyRecord("s", 1, "/p", "t"), [{ path: "x", before: f("1"), after: f("1", 0o755) }]);
    expect(Object.keys(r.changes)).toEqual(["x"]);
  });
  test("tally sorts what was added, changed and removed", () => {
    expect(tally(rec(1, { b: { before: null, after: f("1") }, a: { before: f("1"), after: null }, c: { before: f("1"), after: f("2") } }))).toEqual({ added: ["b"], changed: ["c"], removed: ["a"] });
  });
});

describe("planning an undo", () => {
  const disk = (files: Record<string, Kept | undefined>) => (path: string) => files[path];

  test("each path goes back to what it held before the first undone turn that changed it; a made file is removed", () => {
    const plan = planUndo([rec(2, { a: { before: f("2"), after: f("3") }, n: { before: null, after: f("5") } }), rec(1, { a: { before: f("1"), after: f("2") } })], disk({ a: f("3"), n: f("5") }));
    expect(plan).toEqual({ writes: [{ path: "a", to: f("1") }, { path: "n", to: null }], conflicts: [], lost: [] });
  });
  test("a file changed since the turn is a conflict, and so is one removed or changed between two undone turns", () => {
    const plan = planUndo(
      [rec(1, { a: { before: f("1"), after: f("2") }, b: { before: f("1"), after: f("2") }, c: { before: f("1"), after: null } }), rec(2, { b: { before: f("7"), after: f("8") } })],
      disk({ a: f("person"), b: f("8"), c: undefined }),
    );
    expect(plan.conflicts).toEqual([
      { path: "a", why: "changed since turn 1" },
      { path: "b", why: "changed between turns 1 and 2" },
    ]);
    expect(plan.writes).toEqual([{ path: "c", to: f("1") }]);
  });
  test("a file already back as it was needs nothing; one over the cap when the turn began is reported lost, not touched", () => {
    const big: Kept = { kind: "big", size: 1 << 30, mode: 0o644 };
    const plan = planUndo([rec(1, { same: { before: f("1"), after: f("2") }, huge: { before: big, after: null } })], disk({ same: f("1") }));
    expect(plan).toEqual({ writes: [], conflicts: [], lost: ["huge"] });
  });
});
