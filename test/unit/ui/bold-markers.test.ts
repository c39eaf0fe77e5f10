import { expect, test } from "bun:test";
import { createBoldMarkers } from "../../../src/ui/bold-markers.ts";

test("**Heading** becomes a bold span, even with its markers split across deltas", () => {
  const m = createBoldMarkers();
  expect(m.feed("**Next step**\n\nCalling glob.")).toEqual([
    { text: "Next step", bold: true },
    { text: "\n\nCalling glob.", bold: false },
  ]);
  const split = createBoldMarkers();
  const spans = [...split.feed("*"), ...split.feed("*Plan"), ...split.feed("ning*"), ...split.feed("* then act"), ...split.flush()];
  expect(spans).toEqual([
    { text: "Plan", bold: true },
    { text: "ning", bold: true },
    { text: " then act", bold: false },
  ]);
});

test("a single asterisk is text; a held one comes out at the end; bold does not leak into the next block", () => {
  const m = createBoldMarkers();
  expect(m.feed("2 * 3 = 6 *")).toEqual([{ text: "2 * 3 = 6 ", bold: false }]);
  expect(m.flush()).toEqual([{ text: "*", bold: false }]);
  m.feed("**unclosed");
  m.flush();
  expect(m.feed("plain")).toEqual([{ text: "plain", bold: false }]);
});
