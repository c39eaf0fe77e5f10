/**
 * The forms a secret value takes when a command encodes it — `base64 .env`, `xxd -p`, `od -An -tx1`,
 * a URL's query — so the redactor knows them as it knows the value (redact.ts). Each form carries the
 * separators its tools put inside it: base64 and hex wrap lines (`base64` at 76 columns, `xxd -p` at
 * 60), `od` and `hexdump` space the bytes.
 */

/** What a tool may put between two units of a form: the regex source, one of its characters (a test), and at most how many. */
export type Gap = { source: string; char: RegExp; max: number };

/** A form as text, in units (a character; a byte's two hex digits) between which `gap` may stand. */
export type EncodedForm = { kind: "base64" | "hex" | "url-encoded"; text: string; unit: number; gap?: Gap };

// Shorter forms would be too common to redact without mangling ordinary output (a value that short is not redacted at all).
const MIN_FORM_LENGTH = 8;
const LINE_BREAK: Gap = { source: "(?:\\r?\\n)?", char: /[\r\n]/, max: 2 };
const SPACES: Gap = { source: "\\s{0,4}", char: /\s/, max: 4 };

/**
 * base64 (standard and URL-safe) at each of the three alignments a value can have inside a longer
 * stream, hex in lower and upper case, and percent-encoding as the usual encoders write it. Forms
 * equal to the value, or shorter than MIN_FORM_LENGTH, are left out.
 */
export function encodedForms(value: string): EncodedForm[] {
  const bytes = new TextEncoder().encode(value);
  const forms: EncodedForm[] = [];
  const add = (kind: EncodedForm["kind"], text: string, unit = 1, gap?: Gap) => {
    if (text.length >= MIN_FORM_LENGTH && text !== value && !forms.some((f) => f.text === text)) forms.push({ kind, text, unit, ...(gap ? { gap } : {}) });
  };
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    add("base64", core, 1, LINE_BREAK);
    add("base64", core.replaceAll("+", "-").replaceAll("/", "_"), 1, LINE_BREAK);
  }
  const hex = Buffer.from(bytes).toString("hex");
  add("hex", hex, 2, SPACES);
  add("hex", hex.toUpperCase(), 2, SPACES);
  for (const text of percentForms(value)) add("url-encoded", text);
  return forms;
}

/**
 * The part of base64 that is the value's own when it starts `offset` bytes into a 3-byte group: a
 * character is kept only when all six of its bits are the value's, so the form is found whatever
 * bytes come before and after it (`(printf x; cat .env) | base64`).
 */
export function base64Core(bytes: Uint8Array, offset: number): string {
  const padded = new Uint8Array(offset + bytes.length);
  padded.set(bytes, offset);
  const text = Buffer.from(padded).toString("base64");
  return text.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
}

/**
 * Percent-encodings of the value: JavaScript's encodeURIComponent, the strict RFC 3986 one (Python's
 * `quote(safe="")`, curl's `--data-urlencode`, which also encode `!'()*`), each in upper- and
 * lower-case hex, Python's `quote()` (`/` left as is), and with `+` for a space (forms).
 */
function percentForms(value: string): string[] {
  const loose = encodeURIComponent(value);
  const strict = loose.replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const lower = (s: string) => s.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
  const cased = [loose, strict, strict.replaceAll("%2F", "/")].flatMap((s) => [s, lower(s)]);
  return [...cased, ...cased.map((s) => s.replaceAll("%20", "+"))];
}
