/**
 * The placeholder a secret value is shown as, `[redacted NAME]`, made here and recognised here: the
 * redactor (secrets/redact.ts) writes it, and the write tools look for it in what the model would put in
 * a file, where it must never land (restore-markers.ts).
 */

/** A secret value found in a text: where it starts, the value itself, and the marker shown in its place. */
export type Redaction = { at: number; value: string; marker: string };

export const redactionMarker = (name: string): string => `[redacted ${name}]`;

// Any name: a marker from an earlier state of the redactor (a secret file since changed) is still one.
const SHAPE = /\[redacted [^[\]\r\n]{1,200}\]/g;

/** Every stretch of `text` shaped like a marker, whatever its name, in order. */
export function markerShapes(text: string): { at: number; marker: string }[] {
  if (!text.includes("[redacted ")) return [];
  return [...text.matchAll(SHAPE)].map((m) => ({ at: m.index, marker: m[0] }));
}
