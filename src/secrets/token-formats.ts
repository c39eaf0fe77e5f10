/**
 * The well-known token formats: a value in one of these shapes is a credential by its form alone,
 * wherever it turns up — a project file, a command's print, a variable's value — so the redactor finds
 * them by pattern (redact.ts), and a variable holding one is kept from commands (tool-env.ts). The
 * same list, as a table, is in docs/secrets.md (held equal by test/unit/secrets/token-formats.test.ts).
 *
 * Each format is a sequence of parts: literal alternatives and runs of a character class. From that one
 * shape come both the pattern that finds a whole token and `couldExtend`, which says whether a stream's
 * tail might still be (or grow into) one — so a token split across chunks is held back, never shown.
 */

/** Literal alternatives (none a prefix of another), or a run of characters of a class. */
type Part = { lit: readonly string[] } | { run: string; min: number; max: number };

export type TokenFormat = {
  /** What the marker says: `[redacted GitHub token]`. */
  name: string;
  /** As docs/secrets.md shows the format. */
  shape: string;
  parts: readonly Part[];
  /** Characters that may not come right before a token (a word it would be the tail of: `task-…` is no `sk-…` key). */
  notAfter: string;
  /** A lookahead the text after the first part must pass (an OpenAI key holds a digit; a kebab-case word does not). */
  requires?: string;
};

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const ALNUM = "A-Za-z0-9";
const B64URL = "A-Za-z0-9_-";
const WORD = "A-Za-z0-9_";
const lit = (...alternatives: string[]): Part => ({ lit: alternatives });
const run = (chars: string, min: number, max: number): Part => ({ run: chars, min, max });

export const TOKEN_FORMATS: readonly TokenFormat[] = [
  { name: "GitHub token", shape: "`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` + 20 or more letters and digits", parts: [lit("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), run(ALNUM, 20, 251)], notAfter: WORD },
  { name: "GitHub token", shape: "`github_pat_` + 22 or more letters, digits and `_`", parts: [lit("github_pat_"), run(WORD, 22, 244)], notAfter: WORD },
  { name: "GitLab token", shape: "`glpat-` + 20 or more letters, digits, `_` and `-`", parts: [lit("glpat-"), run(B64URL, 20, 250)], notAfter: WORD },
  {
    name: "API key",
    shape: "`sk-` (OpenAI's `sk-proj-`, `sk-svcacct-`, Anthropic's `sk-ant-`…) + 20 or more letters, digits, `_` and `-`, a digit among them",
    parts: [lit("sk-"), run(B64URL, 20, 400)],
    notAfter: `${WORD}-`,
    requires: `(?=[${B64URL}]{0,399}[0-9])`,
  },
  { name: "AWS access key id", shape: "`AKIA` or `ASIA` + 16 capitals and digits", parts: [lit("AKIA", "ASIA"), run("A-Z0-9", 16, 16)], notAfter: WORD },
  { name: "Slack token", shape: "`xoxa-`, `xoxb-`, `xoxp-`, `xoxr-`, `xoxs-`, `xapp-` + 10 or more letters, digits and `-`", parts: [lit("xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "xapp-"), run(`${ALNUM}-`, 10, 250)], notAfter: WORD },
  { name: "Slack webhook", shape: "`https://hooks.slack.com/services/` + its path", parts: [lit("https://hooks.slack.com/services/"), run(`${ALNUM}/`, 20, 120)], notAfter: "" },
  { name: "npm token", shape: "`npm_` + 30 or more letters and digits", parts: [lit("npm_"), run(ALNUM, 30, 64)], notAfter: WORD },
  { name: "Stripe key", shape: "`sk_live_`, `rk_live_`, `sk_test_`, `rk_test_`, `whsec_` + 16 or more letters and digits", parts: [lit("sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"), run(ALNUM, 16, 247)], notAfter: WORD },
  { name: "Google API key", shape: "`AIza` + 35 letters, digits, `_` and `-`", parts: [lit("AIza"), run(B64URL, 35, 35)], notAfter: WORD },
  { name: "PyPI token", shape: "`pypi-` + 50 or more letters, digits, `_` and `-`", parts: [lit("pypi-"), run(B64URL, 50, 500)], notAfter: WORD },
  { name: "Hugging Face token", shape: "`hf_` + 30 or more letters and digits", parts: [lit("hf_"), run(ALNUM, 30, 64)], notAfter: WORD },
  {
    name: "JWT",
    shape: "`eyJ…` `.` `eyJ…` `.` signature: three base64url parts, the first two JSON",
    parts: [lit("eyJ"), run(B64URL, 10, 2000), lit(".eyJ"), run(B64URL, 10, 8000), lit("."), run(B64URL, 16, 1000)],
    notAfter: WORD,
  },
  {
    name: "private key",
    shape: "`-----BEGIN … PRIVATE KEY-----` (RSA, EC, DSA, OpenSSH, encrypted PKCS#8, PGP) and the body after it",
    parts: [
      lit(...["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "].map((kind) => `-----BEGIN ${kind}PRIVATE KEY-----`), "-----BEGIN PGP PRIVATE KEY BLOCK-----"),
      // The body up to the `-----END` line (kept: it says nothing); `\` for a key inside a JSON string ("\n").
      run("A-Za-z0-9+/=\\s\\\\:,.", 16, 16384),
    ],
    notAfter: "",
  },
];

/** A format compiled: its pattern's source and what a stream needs to hold a token back. */
export type CompiledFormat = TokenFormat & {
  source: string;
  /** The longest a match can be. */
  maxLength: number;
  /** The literals a match starts with. */
  starts: readonly string[];
  /** The pattern again, one branch per first character (a regex of many branches runs faster split so, redact.ts). */
  branches: readonly { first: string; rest: string }[];
  /** Whether `prev` (the character before, "" at the start) lets a token start right after it. */
  startsAfter(prev: string): boolean;
  /** Whether the text from `start` on may still be, or grow into, a longer match: a start of a token, or one that could go on. */
  couldExtend(s: string, start: number): boolean;
};

export function compileFormat(format: TokenFormat): CompiledFormat {
  const body = format.parts.map((p) => ("lit" in p ? `(?:${p.lit.map(escapeRegExp).join("|")})` : `[${p.run}]{${p.min},${p.max}}`));
  const source = (format.notAfter ? `(?<![${format.notAfter}])` : "") + body[0] + (format.requires ?? "") + body.slice(1).join("");
  const classes = format.parts.map((p) => ("run" in p ? new RegExp(`^[${p.run}]$`) : undefined));
  const notAfter = format.notAfter ? new RegExp(`[${format.notAfter}]`) : undefined;
  const starts = "lit" in format.parts[0]! ? format.parts[0].lit : [];
  // After the first character, the lookbehind looks two back: the character before it is the one that counts.
  const branches = [...Map.groupBy(starts, (l) => l[0]!)].map(([first, group]) => ({
    first,
    rest: (format.notAfter ? `(?<![${format.notAfter}].)` : "") + `(?:${group.map((l) => escapeRegExp(l.slice(1))).join("|")})` + (format.requires ?? "") + body.slice(1).join(""),
  }));
  return {
    ...format,
    source,
    maxLength: format.parts.reduce((n, p) => n + ("lit" in p ? Math.max(...p.lit.map((l) => l.length)) : p.max), 0),
    starts,
    branches,
    startsAfter: (prev) => prev === "" || !notAfter?.test(prev),
    couldExtend: (s, start) => couldExtend(format.parts, classes, s, start),
  };
}

/**
 * Walks the text from `start` through the parts as the pattern would (greedy runs; a literal never
 * starts with a character of the run before it, so greedy is exact). True when the text ends inside
 * a literal or inside a run that could take more: more text could make it a match, or a longer one.
 */
function couldExtend(parts: readonly Part[], classes: readonly (RegExp | undefined)[], s: string, start: number): boolean {
  let i = start;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if ("lit" in part) {
      const whole = part.lit.find((l) => s.startsWith(l, i));
      if (whole === undefined) return part.lit.some((l) => l.length > s.length - i && l.startsWith(s.slice(i)));
      i += whole.length;
      continue;
    }
    const chars = classes[p]!;
    let n = 0;
    while (i < s.length && n < part.max && chars.test(s[i]!)) i++, n++;
    if (i === s.length) return n < part.max || p < parts.length - 1;
    if (n < part.min) return false;
  }
  return false;
}

export const COMPILED_FORMATS: readonly CompiledFormat[] = TOKEN_FORMATS.map(compileFormat);

const ALL = new RegExp(COMPILED_FORMATS.map((f) => f.source).join("|"), "g");

/** Every token in `text`, by the formats above (a variable holding one is kept from commands). */
export const tokensIn = (text: string): string[] => [...text.matchAll(ALL)].map((m) => m[0]);
