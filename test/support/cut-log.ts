import { expect } from "bun:test";

/** A build log of about `bytes` bytes: a first line, numbered compile lines (some with non-ASCII quotes), the error last. */
export function buildLog(bytes: number): string[] {
  const lines = ["make[1]: Entering directory '/build/first-line'"];
  for (let i = 1, size = 0; size < bytes; i++) {
    const line = i % 7 ? `cc -O2 -c src/module_${i}.c -o build/module_${i}.o` : `src/module_${i}.c:12: warning: unused variable ‘tmp_${i}’`;
    lines.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  lines.push("ld: error: undefined symbol: frobnicate (referenced by main.o) — the last line");
  return lines;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Checks a fitted log (`label` in its marker) against the original: head and tail kept whole, the
 * tail longer, the marker's figures exact. Returns those figures ("41,234 lines (2,512,345 bytes)")
 * for the notice that should name the cut.
 */
export function expectCut(sent: string, lines: string[], label: string): string {
  const marker = new RegExp(`\\[… ([\\d,]+) lines \\(([\\d,]+) bytes\\) of ${label.replaceAll(".", "\\.")} left out here …\\]\\n`).exec(sent)!;
  expect(marker).not.toBeNull();
  const headLines = sent.slice(0, marker.index).split("\n").slice(0, -1); // the head ends with its line break
  const tailLines = sent.slice(marker.index + marker[0].length).split("\n");
  expect(headLines[0]).toBe(lines[0]!);
  expect(headLines).toEqual(lines.slice(0, headLines.length));
  expect(tailLines.at(-1)).toBe(lines.at(-1)!);
  expect(tailLines).toEqual(lines.slice(-tailLines.length));
  expect(tailLines.length).toBeGreaterThan(headLines.length); // the tail, where the error is, gets more
  const omitted = lines.slice(headLines.length, lines.length - tailLines.length);
  const figures = `${count(omitted.length)} lines (${count(Buffer.byteLength(omitted.join("\n") + "\n"))} bytes)`;
  expect(marker[0]).toBe(`[… ${figures} of ${label} left out here …]\n`);
  return figures;
}
