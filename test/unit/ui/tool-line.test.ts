import { describe, expect, test } from "bun:test";
import { closingNoteLine, outcomeLine, successLine } from "../../../src/ui/tool-line.ts";

describe("one-line outcomes of tool calls", () => {
  test("a bash call is summed up by its output's first line, a failure also by its closing note; a note alone stands alone", () => {
    expect(closingNoteLine("(no output)\n\nStopped by the user (Ctrl-C); the command and every process it started were killed.", 40)).toBe(
      "Stopped by the user (Ctrl-C); the comma…",
    );
    expect(closingNoteLine("FAIL a.test\n\n  expected 1\n  got 2\n\nExit code: 1")).toBe("Exit code: 1 · FAIL a.test (+2 lines)");
    expect(closingNoteLine("3 passed\n0 failed\n\nExit code: 0")).toBe("3 passed (+1 line)");
  });

  test("output the person saw stream is not repeated: the note and how many lines it had", () => {
    expect(closingNoteLine("FAIL a.test\n\n  expected 1\n  got 2\n\nExit code: 1", 100, false)).toBe("Exit code: 1 (+3 lines)");
    expect(closingNoteLine("a\nb\n\nExit code: 0", 100, false)).toBe("Exit code: 0 (+2 lines)");
  });

  test("a one-paragraph error keeps its first line, like a success", () => {
    const error = "Invalid arguments for read_file:\n✖ Invalid input\n  → at path";
    expect(closingNoteLine(error)).toBe(outcomeLine(error));
    expect(closingNoteLine(error)).toBe("Invalid arguments for read_file: (+2 lines)");
  });

  test("one more line is '+1 line'; bash's '(no output)' placeholder is not counted as a line", () => {
    expect(closingNoteLine("only line\n\nExit code: 1")).toBe("Exit code: 1 · only line");
    expect(closingNoteLine("(no output)\n\nExit code: 1")).toBe("Exit code: 1");
    expect(closingNoteLine("a\nb\n\nExit code: 2")).toBe("Exit code: 2 · a (+1 line)");
  });

  test("the sandbox's lines after the note are not output lines", () => {
    expect(closingNoteLine("a\nb\nc\n\nExit code: 0\nIt ran in a read-only sandbox (nobody approved writes for it).")).toBe("a (+2 lines)");
  });
});

describe("a successful read says which lines it got", () => {
  test("numbered lines become a range; a partial read names the total; other tools keep their first line", () => {
    expect(successLine("read_file", "     1\twrite docs\n     2\tship it\n")).toBe("lines 1–2");
    expect(successLine("read_file", "     7\tonly\n")).toBe("line 7");
    expect(successLine("read_file", "     1\ta\n     2\tb\n\n[showing lines 1-2 of 900; continue with offset=3]")).toBe("lines 1–2 of 900");
    expect(successLine("bash", "1\tfoo\n2\tbar")).toBe("1\tfoo (+1 line)".replace("\t", " "));
  });

  test("a successful command is summed up by its output's first line and the rest counted (its exit code with none); a glob counts files", () => {
    expect(successLine("bash", "a\nb\nc\n\nExit code: 0")).toBe("a (+2 lines)");
    expect(successLine("bash", "(no output)\n\nExit code: 0")).toBe("Exit code: 0");
    expect(successLine("glob", "a.txt\nb.txt")).toBe("a.txt (+1 file)");
    expect(successLine("glob", "[id].tsx\nb.txt\n[198 more not shown; narrow the pattern or path]")).toBe("[id].tsx (+199 files)");
    expect(successLine("glob", "a.txt\n[searched only the first 100,000 files (the most one walk lists); narrow the path for the rest]")).toBe("a.txt");
    expect(successLine("glob", "No files match *.md in the project root.")).toBe("No files match *.md in the project root.");
  });
});
