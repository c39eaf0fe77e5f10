import { describe, expect, test } from "bun:test";
import { failureLine, outcomeLine } from "../../src/ui/tool-line.ts";

describe("one-line outcomes of tool calls", () => {
  test("a failed bash call is summed up by its closing note, not by its first output line", () => {
    expect(failureLine("(no output)\n\nStopped by the user (Ctrl-C); the command and every process it started were killed.", 40)).toBe(
      "Stopped by the user (Ctrl-C); the comma…",
    );
    expect(failureLine("FAIL a.test\n\n  expected 1\n  got 2\n\nExit code: 1")).toBe("Exit code: 1 (+3 lines)");
  });

  test("a one-paragraph error keeps its first line, like a success", () => {
    const error = "Invalid arguments for read_file:\n✖ Invalid input\n  → at path";
    expect(failureLine(error)).toBe(outcomeLine(error));
    expect(failureLine(error)).toBe("Invalid arguments for read_file: (+2 lines)");
  });

  test("one more line is '+1 line'; bash's '(no output)' placeholder is not counted as a line", () => {
    expect(failureLine("only line\n\nExit code: 1")).toBe("Exit code: 1 (+1 line)");
    expect(failureLine("(no output)\n\nExit code: 1")).toBe("Exit code: 1");
    expect(failureLine("a\nb\n\nExit code: 2")).toBe("Exit code: 2 (+2 lines)");
  });
});
