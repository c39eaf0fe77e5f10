import { describe, expect, test } from "bun:test";
import { decodeText } from "../../../src/text/decode-text.ts";
import { randomBytes } from "../../support/random-bytes.ts";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

describe("decodeText", () => {
  test("UTF-8 text comes back as it is, a leading BOM dropped", () => {
    expect(decodeText(bytes("naïve ‘quotes’ 🐱\n"))).toEqual({ binary: false, text: "naïve ‘quotes’ 🐱\n", escaped: 0 });
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], "hi"))).toEqual({ binary: false, text: "hi", escaped: 0 });
    expect(decodeText(new Uint8Array())).toEqual({ binary: false, text: "", escaped: 0 });
  });

  test("a few NULs and bytes that are not UTF-8 are escaped, every other byte kept", () => {
    const log = bytes("make: entering ", [0], "dir\nLatin-1 caf", [0xe9], " and a cut emoji: ", [0xf0, 0x9f, 0x90], "\n", "x".repeat(200));
    const r = decodeText(log);
    expect(r).toEqual({
      binary: false,
      text: `make: entering \\x00dir\nLatin-1 caf\\xe9 and a cut emoji: \\xf0\\x9f\\x90\n${"x".repeat(200)}`,
      escaped: 5,
    });
  });

  test("a BOM after an escaped byte is text, and one at the start is still dropped", () => {
    const r = decodeText(bytes([0xef, 0xbb, 0xbf], "a", [0], "b", [0xef, 0xbb, 0xbf], "c".repeat(40)));
    expect(r).toEqual({ binary: false, text: `a\\x00b\u{feff}${"c".repeat(40)}`, escaped: 1 });
  });

  test("overlongs, surrogates and code points past U+10FFFF are not UTF-8", () => {
    const odd = [
      [0xc0, 0xaf], // overlong "/"
      [0xe0, 0x80, 0xaf], // overlong "/"
      [0xed, 0xa0, 0x80], // a lone surrogate
      [0xf4, 0x90, 0x80, 0x80], // U+110000
    ];
    for (const seq of odd) {
      const r = decodeText(bytes("a".repeat(100), seq));
      expect(r.binary).toBe(false);
      if (!r.binary) expect(r.text).toBe("a".repeat(100) + seq.map((b) => `\\x${b.toString(16)}`).join(""));
    }
  });

  test("binary data is named by its size, never decoded: random bytes, an ELF-like header, UTF-16", () => {
    expect(decodeText(randomBytes(100_000))).toEqual({ binary: true, bytes: 100_000 });
    // Random bytes that happen to hold no NUL at all are still binary.
    const noNul = randomBytes(64).map((b) => b || 1);
    expect(decodeText(noNul)).toEqual({ binary: true, bytes: 64 });
    expect(decodeText(bytes([0x7f], "ELF", [2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]))).toEqual({ binary: true, bytes: 16 });
    expect(decodeText(Buffer.from("hello, world\n", "utf16le"))).toEqual({ binary: true, bytes: 26 });
  });

  test("the line is a tenth: 9 odd bytes in 100 are text, 10 are binary", () => {
    expect(decodeText(bytes("a".repeat(91), Array(9).fill(0))).binary).toBe(false);
    expect(decodeText(bytes("a".repeat(90), Array(10).fill(0))).binary).toBe(true);
  });

  test("no U+FFFD or NUL is ever produced, whatever the bytes", () => {
    const outcomes = { text: 0, binary: 0 };
    for (let seed = 1; seed <= 200; seed++) {
      // Mostly text with a sprinkling of random bytes, so both outcomes come up.
      const mixed = randomBytes(300, seed).map((b, i) => (i % (seed % 13 + 2) === 0 ? b : 0x61 + (b % 26)));
      const r = decodeText(mixed);
      outcomes[r.binary ? "binary" : "text"]++;
      if (!r.binary) expect(r.text).not.toMatch(/[\u0000\ufffd]/);
    }
    expect(outcomes.text).toBeGreaterThan(20);
    expect(outcomes.binary).toBeGreaterThan(20);
  });
});
