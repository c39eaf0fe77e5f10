import { z } from "zod";

/**
 * Characters a person cannot see but a model reads (or a terminal obeys): terminal escapes and other
 * controls, zero-width and filler characters, bidirectional overrides that reorder what is shown, and
 * the "tag" and variation-selector blocks that can spell out a whole hidden instruction. Registry text
 * goes before a person for approval and then into every request, so what they read must be all there is.
 * Tab, newline and carriage return are ordinary; so are U+FE0E/U+FE0F, which only pick how an emoji looks.
 */
const HIDDEN: readonly (readonly [number, number, string])[] = [
  [0x0000, 0x0008, "a control character"],
  [0x000b, 0x000c, "a control character"],
  [0x000e, 0x001f, "a control character"],
  [0x007f, 0x009f, "a control character"],
  [0x00ad, 0x00ad, "soft hyphen"],
  [0x034f, 0x034f, "combining grapheme joiner"],
  [0x061c, 0x061c, "Arabic letter mark, a bidirectional mark"],
  [0x115f, 0x1160, "Hangul filler"],
  [0x17b4, 0x17b5, "an invisible Khmer vowel"],
  [0x180b, 0x180f, "a Mongolian variation selector"],
  [0x200b, 0x200b, "zero-width space"],
  [0x200c, 0x200d, "a zero-width joiner"],
  [0x200e, 0x200f, "a bidirectional mark"],
  [0x2028, 0x2029, "a line or paragraph separator"],
  [0x202a, 0x202e, "a bidirectional override"],
  [0x2060, 0x2065, "an invisible operator or word joiner"],
  [0x2066, 0x2069, "a bidirectional isolate"],
  [0x206a, 0x206f, "a deprecated invisible format character"],
  [0x3164, 0x3164, "Hangul filler"],
  [0xfe00, 0xfe0d, "a variation selector"],
  [0xfeff, 0xfeff, "zero-width no-break space"],
  [0xffa0, 0xffa0, "Hangul filler"],
  [0xfff9, 0xfffb, "an interlinear annotation character"],
  [0x1bca0, 0x1bca3, "a shorthand format control"],
  [0x1d173, 0x1d17a, "a musical format control"],
  [0xe0000, 0xe007f, "a tag character"],
  [0xe0100, 0xe01ef, "a variation selector"],
  // With the u flag a surrogate only matches alone: half a character, which renders as nothing or garbage.
  [0xd800, 0xdfff, "an unpaired surrogate"],
];

const codePoint = (value: number) => `\\u{${value.toString(16)}}`;
const FIND = new RegExp(`[${HIDDEN.map(([from, to]) => `${codePoint(from)}-${codePoint(to)}`).join("")}]`, "u");
const FIND_ALL = new RegExp(FIND.source, "gu");

export type HiddenChar = { index: number; codePoint: number; what: string };

/** The first hidden character in `text`, or undefined. */
export function findHidden(text: string): HiddenChar | undefined {
  const found = FIND.exec(text);
  if (!found) return undefined;
  const value = found[0].codePointAt(0)!;
  const what = HIDDEN.find(([from, to]) => value >= from && value <= to)![2];
  return { index: found.index, codePoint: value, what };
}

/** `U+200B (zero-width space)` */
export const describeHidden = ({ codePoint: value, what }: HiddenChar): string => `${uPlus(value)} (${what})`;

const uPlus = (value: number) => `U+${value.toString(16).toUpperCase().padStart(4, "0")}`;

/** Why `text` may not be shown or sent as is, naming the first hidden character; undefined when it may. */
export function hiddenCharProblem(text: string): string | undefined {
  const hidden = findHidden(text);
  return hidden && `contains ${describeHidden(hidden)}`;
}

/** `text` with every hidden character spelled out as `<U+202E>`, for echoing untrusted text in a refusal. */
export const showHidden = (text: string): string =>
  text.replace(FIND_ALL, (char) => `<${uPlus(char.codePointAt(0)!)}>`);

/** A registry text field (description, reason, author): present, at most `max` characters, nothing hidden. */
export const plainTextSchema = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .superRefine((value, ctx) => {
      const problem = hiddenCharProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
