/** A secret's value and the name it is shown under once redacted. */
export type NamedValue = { name: string; value: string };

import type { Redactor, RedactStream } from "../tools/tool-host.ts";
import { redactionMarker } from "../tools/redaction-marker.ts";

export type { Redactor, RedactStream };

// Shorter values stay: a variable holding "1", "dev" or "us-east" would turn ordinary output into
// markers, and a value that short is no secret worth the mangling.
export const MIN_REDACTED_LENGTH = 8;

const passThrough: Redactor = { text: (s) => s, find: () => [], stream: () => ({ push: (chunk) => chunk, flush: () => "" }) };

/**
 * Replaces every occurrence of a value with `[redacted NAME]`. Longer values win where they overlap.
 * The stream holds back only a tail that could be the start of a value, so a value split across
 * chunks is never shown, and its output is exactly what `text` gives for the whole.
 */
export function createRedactor(secrets: readonly NamedValue[]): Redactor {
  const names = new Map<string, string>();
  for (const { name, value } of secrets) if (value.length >= MIN_REDACTED_LENGTH && !names.has(value)) names.set(value, name);
  if (names.size === 0) return passThrough;
  const values = [...names.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(values.map(escapeRegExp).join("|"), "g");
  const longest = values[0]!.length;
  const firstChars = new Set(values.map((v) => v[0]));
  const marker = (value: string) => redactionMarker(names.get(value)!);
  const text = (s: string) => s.replace(pattern, marker);

  /** Where the text's tail that is a proper prefix of some value begins (its length if there is none). */
  const heldFrom = (s: string) => {
    for (let i = Math.max(0, s.length - longest + 1); i < s.length; i++) {
      if (!firstChars.has(s[i]!)) continue;
      const tail = s.slice(i);
      if (values.some((v) => v.length > tail.length && v.startsWith(tail))) return i;
    }
    return s.length;
  };

  return {
    text,
    // The same pattern as `text`, so the matches are exactly what it replaces.
    find: (s) => [...s.matchAll(pattern)].map((m) => ({ at: m.index, value: m[0], marker: marker(m[0]) })),
    stream() {
      let pending = "";
      return {
        push(chunk) {
          const s = pending + chunk;
          const held = heldFrom(s);
          let out = "";
          let end = 0;
          // A value starting before `held` lies whole in `s` (else its start would be held), maybe past `held`.
          for (const m of s.matchAll(pattern)) {
            if (m.index >= held) break;
            out += s.slice(end, m.index) + marker(m[0]);
            end = m.index + m[0].length;
          }
          const shown = Math.max(end, held);
          pending = s.slice(shown);
          return out + s.slice(end, shown);
        },
        flush() {
          const rest = text(pending);
          pending = "";
          return rest;
        },
      };
    },
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
