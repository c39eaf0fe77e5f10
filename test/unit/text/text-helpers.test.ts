import { expect, test } from "bun:test";
import { alignColumns } from "../../../src/text/align-columns.ts";
import { clipText } from "../../../src/text/clip-text.ts";
import { editDistance } from "../../../src/text/edit-distance.ts";
import { formatCount } from "../../../src/text/format-count.ts";
import { clipLine, oneLine } from "../../../src/text/one-line.ts";
import { plural } from "../../../src/text/plural.ts";

test("alignColumns pads to the widest cell, right-aligns the listed columns, leaves a left last column ragged", () => {
  expect(alignColumns([["id", "n", "title"], ["abc", "12", "a longer title"], ["d", "3", "t"]], { right: [1] })).toEqual([
    "id    n  title",
    "abc  12  a longer title",
    "d     3  t",
  ]);
  expect(alignColumns([["name", "cost"], ["x", "$1.50"]], { right: [1] })).toEqual(["name   cost", "x     $1.50"]);
  expect(alignColumns([["a", "b", "c"], ["long", "x"]])).toEqual(["a     b  c", "long  x"]);
});

test("alignColumns with a width word-wraps the last column under itself, or clips the chosen column", () => {
  const rows = [["/help", "show this menu"], ["/resume [id]", "resume a saved session where it left off, with its notes and its tasks"]];
  const wrapped = alignColumns(rows, { width: 50 });
  expect(wrapped).toEqual([
    "/help         show this menu",
    "/resume [id]  resume a saved session where it left",
    "              off, with its notes and its tasks",
  ]);
  for (const line of wrapped) expect(line.length).toBeLessThanOrEqual(50);
  // Too little room left to wrap the last column readably: it is clipped, so no line reaches the edge.
  expect(alignColumns(rows, { width: 30 })).toEqual(["/help         show this menu", "/resume [id]  resume a saved …"]);
  const table = [["id", "title", "cost"], ["a1", "refactor the payment module", "$1"]];
  expect(alignColumns(table, { width: 21, clip: { column: 1, min: 5 } })).toEqual(["id  title        cost", "a1  refactor t…  $1"]);
  // The clipped column cannot shrink below its minimum: the line is cut at the edge instead.
  expect(alignColumns(table, { width: 10, clip: { column: 1, min: 5 } })[1]).toBe("a1  refa…");
  for (const width of [8, 12, 20, 40]) for (const line of alignColumns([...rows, ...table], { width })) expect(line.length).toBeLessThanOrEqual(width);
});

test("oneLine takes a line with nothing to flatten as it is, and flattens anything else as the regex does", () => {
  const samples = ["", " ", "a", "a b", "a  b", " a", "a ", "a\u00a0b", "a\tb", "a\nb", "\ufeffa", "a\u2028b", "path/to/file.ts", "x".repeat(300) + " y", "a b c d", "a \r\n b"];
  for (const s of samples) expect([s, oneLine(s)]).toEqual([s, s.replace(/\s+/g, " ").trim()]);
});

test("oneLine and clipLine flatten whitespace; clipLine keeps max characters with the ellipsis", () => {
  expect(oneLine("  a\n\tb   c \n")).toBe("a b c");
  expect(clipLine("abcdef", 6)).toBe("abcdef");
  expect(clipLine("abc\ndefg", 6)).toBe("abc d…");
});

test("clipText keeps the start and counts what it cut", () => {
  expect(clipText("short", 10)).toBe("short");
  expect(clipText("x".repeat(1_300), 100)).toBe(`${"x".repeat(100)}… [1,200 more chars]`);
});

test("formatCount groups thousands; editDistance counts single-character edits", () => {
  expect([0, 999, 1_000, 8_192, 1_234_567].map(formatCount)).toEqual(["0", "999", "1,000", "8,192", "1,234,567"]);
  expect(editDistance("kitten", "sitting")).toBe(3);
  expect(editDistance("", "abc")).toBe(3);
  expect(editDistance("same", "same")).toBe(0);
});

test("plural is singular only for exactly one", () => {
  expect([0, 1, 2].map((n) => plural(n, "line"))).toEqual(["0 lines", "1 line", "2 lines"]);
  expect(plural(1, "task remains", "tasks remain")).toBe("1 task remains");
});
