import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { rustRegex } from "../../../../src/tools/search/rust-regex.ts";
import { tempProject } from "../../../support/temp-project.ts";
import { toolHere } from "../../../support/tool-here.ts";

const hasRg = toolHere("rg", Bun.which("rg") !== null);

const enc = (s: string) => Buffer.from(s, "utf8");
// Lines where the dialects part: astral characters, stray non-UTF-8 bytes, Unicode digits and spaces, CR.
const LINES: Buffer[] = [
  "ab", "aXb", "a😀b", "aéb", "é1", "x٣y", "a b", "a\u00a0b", "a\u0085b", "a\ufeffb", "foo/bar", "x{y}", "[x]", "a-b", "caf\u00e9", "Straße", "ſ",
  "foo bar", "foobar", "(a)a", "say \"hi\" now", "tab\there", "end\r", "😀", "😀😀x", "u{1F600}", "p{L}", "k<n>", "a{,3}", "aa", "", "\\c", "x\u2028y",
].map(enc);
LINES.push(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x73]), Buffer.from([0x61, 0xff, 0x62]), Buffer.from([0x61, 0xc3, 0x62]));
const PATTERNS = [
  "a..b", "a.b", "^.{3}$", "^..$", "\\d+", "\\D", "\\w+\\s*=", "\\bfoo\\b", "\\B", "[^\"]+", "\"[^\"]*\"", "\\/", "foo\\/bar", "x\\{y\\}", "x{y}", "\\[x\\]", "[\\w-]+",
  "(?<=a)b", "(?<!a)b", "a(?=b)", "a(?!c)", "(a)\\1", "(?<n>a)\\k<n>", "\\k<n>", "\\u00e9", "\\x41|\\x61", "caf.s", "caf\\S", "a\\Wb", "a\\sb", "a\\Sb", "[é]", "[\\u00e0-\\u00ff]",
  "\\u{1F600}", "[😀]", "😀", "\\uD83D\\uDE00", "\\uD83D", "[\\uD800-\\uDFFF]", "\\s\\S", "[\\s\\S]", "[^]", "a[^]b", "\\0", "a{,3}", "a{2}", "a|", "^$", "$", "\\t", "[\\b]",
  "[a-\\d]", "\\p{L}", "\\\\c", "[\\w\\W]{3}", "^\\S+$", "\\s$", "x.y", "a\\u0085b", "[^a-z]{2}", "\\cJ|a", "(?:a|b)+", "a*?b", "[\\-]", "[-a]", "[a-]",
];
const project = tempProject();
afterAll(() => project.cleanup());
const file = join(project.root, "lines.txt");
writeFileSync(file, Buffer.concat(LINES.flatMap((line) => [line, enc("\n")])));
const decoded = LINES.map((line) => new TextDecoder().decode(line));
const rg = (pattern: string) => {
  const run = Bun.spawnSync(["rg", "--no-config", "-n", "--no-filename", "-e", pattern, file]);
  return { code: run.exitCode, lines: run.stdout.toString().split("\n").filter(Boolean).map((l) => Number(l.slice(0, l.indexOf(":"))) - 1) };
};

describe.skipIf(!hasRg)("rustRegex: every line JavaScript matches, ripgrep matches too", () => {
  for (const pattern of PATTERNS) {
    test(pattern, () => {
      const js = new RegExp(pattern);
      const rust = rustRegex(pattern)!;
      expect(rust).toBeDefined();
      const found = rg(rust);
      expect(found.code).toBeLessThan(2);
      const missed = decoded.flatMap((line, i) => (js.test(line) && !found.lines.includes(i) ? [JSON.stringify(line)] : []));
      expect(missed).toEqual([]);
    });
  }

  test("\\s is JavaScript's own set", () => {
    const units = Array.from({ length: 0xd800 }, (_, i) => i).filter((c) => c !== 0 && c !== 10);
    writeFileSync(file, units.map((c) => String.fromCharCode(c)).join("\n") + "\n");
    const found = new Set(rg(rustRegex("^\\s$")!).lines.map((i) => units[i]));
    expect(units.filter((c) => /\s/.test(String.fromCharCode(c)) !== found.has(c))).toEqual([]);
  });

  test("what it cannot widen is left to JavaScript", () => {
    expect(rustRegex("(?i:abc)")).toBeUndefined();
  });
});
