/** A secret's value and the name it is shown under once redacted. */
export type NamedValue = { name: string; value: string };

import { redactionMarker } from "../text/redaction-marker.ts";
import type { Redactor, RedactStream } from "../tools/tool-host.ts";
import { encodedForms, type Gap } from "./encoded-forms.ts";
import { COMPILED_FORMATS, escapeRegExp, type CompiledFormat } from "./token-formats.ts";

export type { Redactor, RedactStream };

// Shorter values stay: a variable holding "1", "dev" or "us-east" would turn ordinary output into
// markers, and a value that short is no secret worth the mangling.
export const MIN_REDACTED_LENGTH = 8;

/** What is looked for as written: a value, or one of its encoded forms (units apart, with `gap` allowed between). */
type Needle = { text: string; marker: string; unit: number; gap?: Gap; maxLength: number };

const passThrough: Redactor = { text: (s) => s, find: () => [], stream: () => ({ push: (chunk) => chunk, flush: () => "" }) };

/**
 * Replaces every occurrence of a known value — as written, or base64-, hex- or URL-encoded — with
 * `[redacted NAME]` (`[redacted NAME (base64)]`), and every token of a well-known format
 * (token-formats.ts) with `[redacted <format>]`. Longer values win where they overlap, values before
 * formats. The stream holds back only a tail that could be the start of a value or a token, so one
 * split across chunks is never shown, and its output is exactly what `text` gives for the whole.
 */
export function createRedactor(secrets: readonly NamedValue[], formats: readonly CompiledFormat[] = COMPILED_FORMATS): Redactor {
  const needles = needlesOf(secrets);
  if (needles.length === 0 && formats.length === 0) return passThrough;
  const pattern = new RegExp(byFirstChar([...needles.map(needleBranch), ...formats.flatMap((f) => f.branches)]), "g");
  const anchored = formats.map((f) => new RegExp(`^(?:${f.source})$`));
  const byText = new Map(needles.map((n) => [n.text, n]));
  const longestNeedle = Math.max(0, ...needles.map((n) => n.maxLength));
  const byFirst = Map.groupBy(needles, (n) => n.text[0]!);

  const markerOf = (m: RegExpExecArray): string => {
    const needle = byText.get(m[0]) ?? byText.get(m[0].replace(/\s/g, ""));
    if (needle) return needle.marker;
    const format = formats.find((_, i) => anchored[i]!.test(m[0]));
    return redactionMarker(format?.name ?? "secret");
  };

  /** Redacts the matches in `s` that start before `limit`; `before` is the text's last character shown (a token's left edge). */
  const scan = (before: string, s: string, limit: number) => {
    const text = before + s;
    pattern.lastIndex = before.length;
    let out = "";
    let end = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const at = m.index - before.length;
      if (at >= limit) break;
      out += s.slice(end, at) + markerOf(m);
      end = at + m[0].length;
    }
    return { out, end };
  };

  /**
   * Where the earliest tail that could still start (or grow) a match begins; `s.length` if none does.
   * A token can only begin where its start literal does (found by indexOf) or in a piece of one ending
   * the text; a value only within its length of the end.
   */
  const heldFrom = (s: string, before: string) => {
    let held = s.length;
    const opens = (f: CompiledFormat, i: number) => f.startsAfter(i > 0 ? s[i - 1]! : before) && f.couldExtend(s, i);
    for (const f of formats) {
      const from = Math.max(0, s.length - f.maxLength + 1);
      for (const start of f.starts) {
        for (let i = s.indexOf(start, from); i >= 0 && i < held; i = s.indexOf(start, i + 1)) if (opens(f, i)) held = i;
        for (let i = Math.max(from, s.length - start.length + 1); i < held; i++) if (s[i] === start[0] && opens(f, i)) held = i;
      }
    }
    for (let i = Math.max(0, s.length - longestNeedle + 1); i < held; i++) if (byFirst.get(s[i]!)?.some((n) => couldGrow(n, s, i))) return i;
    return held;
  };

  return {
    text(s) {
      const { out, end } = scan("", s, s.length);
      return out + s.slice(end);
    },
    // The same pattern and loop as `text`, so the matches are exactly what it replaces (the write tools put them back).
    find(s) {
      const found = [];
      pattern.lastIndex = 0;
      for (let m = pattern.exec(s); m; m = pattern.exec(s)) found.push({ at: m.index, value: m[0], marker: markerOf(m) });
      return found;
    },
    stream() {
      let pending = "";
      let before = "";
      return {
        push(chunk) {
          const s = pending + chunk;
          const held = heldFrom(s, before);
          // A match starting before `held` lies whole in `s` (else its start would be held), maybe past `held`.
          const { out, end } = scan(before, s, held);
          const shown = Math.max(end, held);
          if (shown > 0) before = s[shown - 1]!;
          pending = s.slice(shown);
          return out + s.slice(end, shown);
        },
        flush() {
          const { out, end } = scan(before, pending, pending.length);
          const rest = out + pending.slice(end);
          pending = before = "";
          return rest;
        },
      };
    },
  };
}

/** Each value once (the first name given wins), then its encoded forms; longest first. */
function needlesOf(secrets: readonly NamedValue[]): Needle[] {
  const byText = new Map<string, Needle>();
  const kept = secrets.filter((s) => s.value.length >= MIN_REDACTED_LENGTH);
  for (const { name, value } of kept) if (!byText.has(value)) byText.set(value, { text: value, marker: redactionMarker(name), unit: 1, maxLength: value.length });
  for (const { name, value } of kept) {
    for (const form of encodedForms(value)) {
      if (byText.has(form.text)) continue;
      const gaps = form.gap ? (form.text.length / form.unit - 1) * form.gap.max : 0;
      byText.set(form.text, { text: form.text, marker: redactionMarker(`${name} (${form.kind})`), unit: form.unit, ...(form.gap ? { gap: form.gap } : {}), maxLength: form.text.length + gaps });
    }
  }
  return [...byText.values()].sort((a, b) => b.text.length - a.text.length);
}

/** A needle as a branch: its first character, then the rest (with the gaps its tools may put between units). */
function needleBranch(n: Needle): { first: string; rest: string } {
  let rest = "";
  for (let i = 1; i < n.text.length; i++) rest += (n.gap && i % n.unit === 0 ? n.gap.source : "") + escapeRegExp(n.text[i]!);
  return { first: n.text[0]!, rest };
}

/**
 * One pattern of all branches, grouped by first character (`a(?:…|…)|b(?:…)`): JavaScriptCore tries the
 * branches of an alternation one by one at each position, and grouped it tries one character per group
 * instead of every branch. Within a group, the order given (longer values first, values before tokens) holds.
 */
function byFirstChar(branches: readonly { first: string; rest: string }[]): string {
  return [...Map.groupBy(branches, (b) => b.first)].map(([first, group]) => `${escapeRegExp(first)}(?:${group.map((b) => b.rest).join("|")})`).join("|");
}

/** Whether the text from `i` on is a proper start of the needle (its gaps skipped as the pattern skips them). */
function couldGrow(n: Needle, s: string, i: number): boolean {
  if (!n.gap) return s.length - i < n.text.length && n.text.startsWith(s.slice(i));
  let j = i;
  for (let k = 0; k < n.text.length; k++) {
    if (k > 0 && k % n.unit === 0) for (let g = 0; g < n.gap.max && j < s.length && n.gap.char.test(s[j]!); g++) j++;
    if (j === s.length) return true;
    if (s[j] !== n.text[k]) return false;
    j++;
  }
  return false;
}
