import { describe, expect, test } from "bun:test";
import { createRedactor, MIN_REDACTED_LENGTH } from "../../../src/secrets/redact.ts";

// The values alone here (no token formats): token-redact.test.ts has the formats and encoded forms.
const KEY = "sk-test-0123456789abcdef";
const redactor = createRedactor(
  [
    { name: "OPENAI_API_KEY", value: KEY },
    { name: "GITHUB_TOKEN", value: "ghp_tokenvalue42" },
  ],
  [],
);

/** Feeds `chunks` through a fresh stream; returns each push's output and the flush. */
function streamed(chunks: string[], r = redactor): string[] {
  const stream = r.stream();
  return [...chunks.map((c) => stream.push(c)), stream.flush()];
}

describe("createRedactor: text", () => {
  test("every occurrence of every value becomes [redacted NAME]", () => {
    expect(redactor.text(`a ${KEY} b ${KEY}\nGH=ghp_tokenvalue42`)).toBe("a [redacted OPENAI_API_KEY] b [redacted OPENAI_API_KEY]\nGH=[redacted GITHUB_TOKEN]");
  });

  test("text without a value is returned unchanged, regex characters in a value are literal", () => {
    const r = createRedactor([{ name: "P", value: "a.b*c(d)[e]$1" }], []);
    expect(r.text("aXbbbc(d)[e]$1")).toBe("aXbbbc(d)[e]$1");
    expect(r.text("x a.b*c(d)[e]$1 y")).toBe("x [redacted P] y");
  });

  test(`values under ${MIN_REDACTED_LENGTH} chars are left alone; no values and no formats redact nothing`, () => {
    const r = createRedactor([{ name: "AWS_PROFILE", value: "default" }, { name: "EMPTY", value: "" }]);
    expect(r.text("profile default")).toBe("profile default");
    expect(createRedactor([], []).text(KEY)).toBe(KEY);
    expect(streamed([KEY.slice(0, 5), KEY.slice(5)], createRedactor([], [])).join("")).toBe(KEY);
  });

  test("the longer value wins where one contains another; a repeated value keeps its first name", () => {
    const r = createRedactor(
      [
        { name: "SHORT", value: "abcdefgh" },
        { name: "LONG", value: "abcdefgh-and-more" },
        { name: "SAME", value: "abcdefgh" },
      ],
      [],
    );
    expect(r.text("abcdefgh-and-more abcdefgh")).toBe("[redacted LONG] [redacted SHORT]");
  });
});

describe("createRedactor: stream", () => {
  test("a value split across chunks is never shown; what is held comes out later, redacted", () => {
    const out = streamed(["key: sk-te", "st-0123", "456789abcdef done\n"]);
    expect(out.join("")).toBe("key: [redacted OPENAI_API_KEY] done\n");
    for (const piece of out) expect(piece).not.toContain("sk-te");
  });

  test("output that cannot start a value is shown at once, nothing held", () => {
    expect(streamed(["building...\n", "ok\n"])).toEqual(["building...\n", "ok\n", ""]);
  });

  test("a held tail that turns out to be no value comes out with the next chunk, or at the flush", () => {
    expect(streamed(["prefix sk-test-01", "x"])).toEqual(["prefix ", "sk-test-01x", ""]);
    expect(streamed(["ends with sk-te"])).toEqual(["ends with ", "sk-te"]);
  });

  test("one character at a time gives what text gives for the whole", () => {
    const whole = `start ${KEY}${KEY} ghp_tokenvalue42 sk-test-0123 end ${KEY}`;
    expect(streamed([...whole]).join("")).toBe(redactor.text(whole));
  });

  test("any split of random text full of near-misses gives what text gives for the whole", () => {
    const pieces = [KEY, KEY.slice(0, 10), "ghp_", "ghp_tokenvalue42", "sk-", " ", "\n", "😀", "abc"];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const whole = Array.from({ length: 20 }, () => pieces[rand(pieces.length)]).join("");
      const chunks: string[] = [];
      for (let i = 0; i < whole.length; ) {
        const n = 1 + rand(12);
        chunks.push(whole.slice(i, i + n));
        i += n;
      }
      const out = streamed(chunks);
      expect(out.join("")).toBe(redactor.text(whole));
      for (const piece of out) expect(piece).not.toContain(KEY);
    }
  });
});
