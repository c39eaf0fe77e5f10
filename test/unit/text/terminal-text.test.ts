/** What untrusted text may send a terminal: colours only; and what an approval shows: every character. */
import { expect, test } from "bun:test";
import { shownAsIs, terminalStream, terminalText, withoutEscapes } from "../../../src/text/terminal-text.ts";
import { clipLine } from "../../../src/text/one-line.ts";

const HOSTILE = "a\x1b]52;c;cm0gLXJmIH4=\x07b\x1b[2J\x1b[Hc\x1b[1A\x1b[2Kd\x1bPq#0\x1b\\e\x07\bf\u009b31mg\x1b";

test("terminalText keeps colours and text, and drops cursor moves, erases, OSC, DCS, C1 controls, bells and backspaces", () => {
  expect(terminalText(`\x1b[31mred\x1b[0m ${HOSTILE}`)).toBe("\x1b[31mred\x1b[0m abcdef31mg");
  expect(terminalText("tab\tand\nlines\r\n")).toBe("tab\tand\nlines\r\n");
  // An unterminated OSC is cut to the end, not passed on for the terminal to finish.
  expect(terminalText("x\x1b]0;title")).toBe("x");
});

test("withoutEscapes and clipLine drop colours too", () => {
  expect(withoutEscapes(`\x1b[8mhidden\x1b[0m ${HOSTILE}`)).toBe("hidden abcdef31mg");
  expect(clipLine(`Echo: fine\x1b]52;c;Y3VybA==\x07\x1b[2J`, 100)).toBe("Echo: fine");
});

test("shownAsIs spells out a lone carriage return, escapes and bidi controls; newlines stay", () => {
  expect(shownAsIs("touch x #\r\x1b[Kecho hi")).toBe("touch x #<U+000D><U+001B>[Kecho hi");
  expect(shownAsIs("a\u202eb\r\nc")).toBe("a<U+202E>b\r\nc");
});

test("terminalStream holds a sequence cut between chunks until its end, then drops it whole", () => {
  const stream = terminalStream();
  expect(["here\x1b]52;c;Y", "3VybA==\x07 \x1b[3", "2mred\x1b[0m done\x1b"].map(stream).join("")).toBe("here \x1b[32mred\x1b[0m done");
  expect(stream("[0m next")).toBe("\x1b[0m next");
});
