import { describe, expect, test } from "bun:test";
import { failureLine, outcomeLine, successLine } from "../../src/ui/tool-line.ts";

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

describe("a successful read says which lines it got", () => {
  test("numbered lines become a range; a partial read names the total; other tools keep their first line", () => {
    expect(successLine("read_file", "     1\twrite docs\n     2\tship it\n")).toBe("lines 1–2");
    expect(successLine("read_file", "     7\tonly\n")).toBe("line 7");
    expect(successLine("read_file", "     1\ta\n     2\tb\n\n[showing lines 1-2 of 900; continue with offset=3]")).toBe("lines 1–2 of 900");
    expect(successLine("bash", "1\tfoo\n2\tbar")).toBe("1\tfoo (+1 line)".replace("\t", " "));
    expect(successLine("glob", "a.txt\nb.txt")).toBe("a.txt (+1 line)");
  });
});
