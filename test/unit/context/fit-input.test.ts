import { describe, expect, test } from "bun:test";
import { cutMarker, fitInput } from "../../../src/context/fit-input.ts";

const log = (n: number, line = (i: number) => `step ${i}: compiling module ${i}`) =>
  Array.from({ length: n }, (_, i) => line(i + 1)).join("\n");

/** Splits a fitted text back into what was kept of `text` before and after the marker line. */
function parts(fitted: string, text: string) {
  const match = fitted.match(/\[… ([\d,]+) lines? \(([\d,]+) bytes\) of stdin left out here …\]\n/)!;
  expect(match).not.toBeNull();
  const before = fitted.slice(0, match.index!);
  // A head cut inside a line gets a line break of its own before the marker.
  const head = text.startsWith(before) ? before : before.slice(0, -1);
  const num = (s: string) => Number(s.replaceAll(",", ""));
  return { head, tail: fitted.slice(match.index! + match[0].length), lines: num(match[1]!), bytes: num(match[2]!) };
}

describe("fitInput", () => {
  test("input that fits is returned as it is", () => {
    const text = log(100);
    expect(fitInput(text, text.length, "stdin")).toEqual({ text });
  });

  test("a long log keeps its first and, above all, its last lines whole; the marker counts what went", () => {
    const lines = log(50_000).split("\n");
    const text = lines.join("\n");
    const fitted = fitInput(text, 20_000, "stdin");
    expect(fitted.text.length).toBeLessThanOrEqual(20_000);
    const { head, tail, lines: leftOut, bytes } = parts(fitted.text, text);
    const headLines = head.split("\n").slice(0, -1); // the head ends with its line break
    const tailLines = tail.split("\n");
    expect(headLines).toEqual(lines.slice(0, headLines.length));
    expect(tailLines).toEqual(lines.slice(-tailLines.length));
    expect(tailLines.at(-1)).toBe("step 50000: compiling module 50000");
    expect(tailLines.length).toBeGreaterThan(2 * headLines.length);
    const omitted = lines.slice(headLines.length, lines.length - tailLines.length);
    expect(leftOut).toBe(omitted.length);
    expect(bytes).toBe(Buffer.byteLength(omitted.map((l) => `${l}\n`).join("")));
    expect(fitted.cut).toEqual({ lines: leftOut, bytes });
  });

  test("bytes are UTF-8 bytes, and no emoji is split", () => {
    const text = log(5_000, (i) => `é ${i} 🚀`);
    const fitted = fitInput(text, 3_000, "stdin");
    const { head, tail, bytes } = parts(fitted.text, text);
    expect(head.length + tail.length).toBeGreaterThan(2_000);
    expect(bytes).toBe(Buffer.byteLength(text) - Buffer.byteLength(head) - Buffer.byteLength(tail));
    expect(fitted.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });

  test("one line longer than the room keeps its start and its end, cut inside", () => {
    const text = "A".repeat(10) + "x".repeat(100_000) + "THE END";
    const fitted = fitInput(text, 1_000, "stdin");
    const { head, tail, lines, bytes } = parts(fitted.text, text);
    expect(head).toStartWith("AAAAAAAAAAx");
    expect(tail).toEndWith("xTHE END");
    expect(lines).toBe(1);
    expect(head.length + bytes + tail.length).toBe(text.length);
    expect(fitted.text.length).toBeLessThanOrEqual(1_000);
  });

  test("an emoji at the very cut of a long line is kept whole or left out whole", () => {
    for (let offset = 0; offset < 4; offset++) {
      const text = "a".repeat(offset) + "🚀".repeat(5_000);
      const fitted = fitInput(text, 501, "stdin");
      const { head, tail, bytes } = parts(fitted.text, text);
      expect(Buffer.byteLength(head) + bytes + Buffer.byteLength(tail)).toBe(Buffer.byteLength(text));
      expect(fitted.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });

  test("with no room for text, only the marker is left", () => {
    const text = log(10);
    const fitted = fitInput(text, 5, "stdin");
    expect(fitted.text).toBe(`${cutMarker({ lines: 10, bytes: Buffer.byteLength(text) }, "stdin")}\n`);
  });

  test("any text and room: kept + left out is the whole input, and the result fits", () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + random(400) }, () => "x".repeat(random(random(4) === 0 ? 2_000 : 80)));
      const text = lines.join("\n");
      const max = 100 + random(text.length + 10);
      const fitted = fitInput(text, max, "stdin");
      expect(fitted.text.length).toBeLessThanOrEqual(max);
      if (!fitted.cut) {
        expect(fitted.text).toBe(text);
        continue;
      }
      const { head, tail, lines: leftOut, bytes } = parts(fitted.text, text);
      expect(text.startsWith(head)).toBe(true);
      expect(text.endsWith(tail)).toBe(true);
      const omitted = text.slice(head.length, text.length - tail.length);
      expect(bytes).toBe(omitted.length);
      expect(leftOut).toBe(omitted.split("\n").length - (omitted.endsWith("\n") ? 1 : 0));
    }
  });
});
