/**
 * The redactor by evidence: tokens of the well-known formats found wherever they are, the encoded
 * forms of known values, and the stream holding back a tail that could start either, split anywhere.
 */
import { describe, expect, test } from "bun:test";
import { createRedactor, type Redactor } from "../../../src/secrets/redact.ts";
import { base64Core, encodedForms } from "../../../src/secrets/encoded-forms.ts";
import { decodedEverywhere } from "../../support/decoded-everywhere.ts";
import { TOKENS } from "../../support/tokens.ts";

const SECRET = "pgPw/7+Qx=z?k&9 end"; // `/`, `+` and `=` in its base64, spaces and `&` in its URL form
const known = createRedactor([{ name: ".env", value: SECRET }]);

function streamed(chunks: string[], r: Redactor = known): string[] {
  const stream = r.stream();
  return [...chunks.map((c) => stream.push(c)), stream.flush()];
}

/** Every split of `whole` in two, and one character at a time: the same as `text`, and no piece holds any of `hidden`. */
function expectEverySplit(whole: string, hidden: string[], r: Redactor = known) {
  const expected = r.text(whole);
  for (const h of hidden) expect(expected).not.toContain(h);
  const splits = [...Array.from({ length: whole.length + 1 }, (_, i) => [whole.slice(0, i), whole.slice(i)]), [...whole]];
  for (const chunks of splits) {
    const out = streamed(chunks, r);
    expect(out.join("")).toBe(expected);
    for (const piece of out) for (const h of hidden) expect(piece).not.toContain(h);
  }
}

describe("tokens of the well-known formats", () => {
  test("each is redacted wherever it is, named by its format; the text around it stays", () => {
    for (const [name, token] of TOKENS) expect(known.text(`before (${token}) after`)).toBe(`before ([redacted ${name}]) after`);
  });

  test("a value shiro knows keeps its own name where it is also a token", () => {
    const token = TOKENS[0]![1];
    expect(createRedactor([{ name: "GITHUB_TOKEN", value: token }]).text(`t=${token}`)).toBe("t=[redacted GITHUB_TOKEN]");
  });

  test("the control: ordinary output (SHAs, UUIDs, base64, words) passes unchanged", () => {
    const plain = "commit 3f786850e387550fdab836ed7e6dc881de23001b\nid 123e4567-e89b-12d3-a456-426614174000\nSGVsbG8gd29ybGQ=\ntask-force-2024-q3-planning ok\n";
    expect(known.text(plain)).toBe(plain);
    expect(streamed([...plain]).join("")).toBe(plain);
  });

  test("split at every position, a token never shows, and the stream gives what text gives", () => {
    for (const [, token] of TOKENS.filter((_, i) => i % 3 === 0)) expectEverySplit(`log: ${token}\ndone\n`, [token]);
  });

  test("a word a token could have ended stays a word across chunks: the character before counts", () => {
    const word = "task-0123456789abcdefghijklmn"; // `sk-…` inside a word is no key
    expect(known.text(word)).toBe(word);
    expectEverySplit(`x ${word} y`, []);
  });

  test("a token that could still grow is held back, then let out whole once it ends", () => {
    const token = TOKENS[0]![1];
    expect(streamed([`a ${token}`, " b"])).toEqual(["a ", "[redacted GitHub token] b", ""]);
    expect(streamed(["a ghp", "_x b"])).toEqual(["a ", "ghp_x b", ""]);
  });
});

describe("encoded forms of a known value", () => {
  const enc = (s: string, how: BufferEncoding) => Buffer.from(s).toString(how);
  const wrap = (s: string, width: number) => s.replace(new RegExp(`(.{${width}})`, "g"), "$1\n");

  test("base64's core at each offset is in the encoding of any text holding the value there", () => {
    const bytes = new TextEncoder().encode(SECRET);
    for (const before of ["", "x", "xy", "KEY=", "API_KEY="])
      for (const after of ["", "\n", "!", "rest of the file"]) {
        const whole = Buffer.from(before + SECRET + after).toString("base64");
        expect(whole).toContain(base64Core(bytes, before.length % 3));
      }
  });

  test("base64 (standard, URL-safe, any offset, wrapped at 76), hex (continuous, wrapped, spaced) and URL forms are redacted", () => {
    const shown = [
      enc(SECRET, "base64"),
      enc(`KEY=${SECRET}\n`, "base64"),
      enc(`x${SECRET}`, "base64url"),
      wrap(enc(`${"filler ".repeat(9)}${SECRET}${"more ".repeat(20)}`, "base64"), 76),
      enc(SECRET, "hex"),
      enc(SECRET, "hex").toUpperCase(),
      wrap(enc(`xx${SECRET}`, "hex"), 60), // xxd -p
      [...Buffer.from(SECRET)].map((b) => ` ${b.toString(16).padStart(2, "0")}`).join("").replace(/((?: \w\w){8})/, "$1\n"), // od -An -tx1
      encodeURIComponent(SECRET),
      encodeURIComponent(SECRET).replaceAll("%20", "+"),
    ];
    for (const text of shown) {
      const out = known.text(`out: ${text} :end`);
      expect(out).toMatch(/\[redacted \.env \((base64|hex|url-encoded)\)\]/);
      expect(decodedEverywhere(out)).not.toContain(SECRET);
    }
  });

  test("the control: base64 and hex of other text pass unchanged; forms under 8 characters are not made", () => {
    const other = `${enc("an ordinary file\n", "base64")}\n${enc("an ordinary file\n", "hex")}\n`;
    expect(known.text(other)).toBe(other);
    expect(encodedForms("abc")).toEqual([]);
    expect(encodedForms("abcdefgh").every((f) => f.text.length >= 8)).toBe(true);
  });

  test("an encoded form split across chunks, at every position, never shows", () => {
    const b64 = wrap(enc(`x${SECRET}`, "base64"), 8);
    expectEverySplit(`== ${b64} ==`, [enc(SECRET, "base64").slice(4, 16)]);
    expectEverySplit(`hex ${enc(SECRET, "hex")} .`, [enc(SECRET, "hex").slice(4, 30)]);
  });
});
