import { markerShapes, type Redaction } from "../../text/redaction-marker.ts";

/**
 * A marker as the model saw it in a file: what it stood for there (a secret value, or itself for text of
 * a marker's shape the file holds as text), where it starts in the shown text, and its line as shown
 * (without the ending) with the column it starts at — the context a written marker is matched by.
 */
export type HeldMarker = { marker: string; value: string; at: number; line: string; column: number };

/** A file's text as the model was shown it, secret values as markers, and the way back to its bytes. */
export type RedactedView = {
  /** The text as shown. */
  text: string;
  /** Every marker in the shown text, in order: the redactions, and marker-shaped text the file holds itself. */
  held: readonly HeldMarker[];
  /** The file's own text for the shown stretch [from, to); neither end may fall inside a marker (see `inside`). */
  original(from: number, to: number): string;
  /** The marker an index of the shown text falls strictly inside: such an index has no place in the file. */
  inside(index: number): HeldMarker | undefined;
  /** The markers lying wholly within the shown stretch [from, to). */
  heldIn(from: number, to: number): HeldMarker[];
};

/** The view of `original` in which each of `redactions` (the redactor's `find` of it) is its marker. Pure. */
export function redactedView(original: string, redactions: readonly Redaction[]): RedactedView {
  // Each redaction as a stretch of both texts: [from, to) shown, [oFrom, oTo) in the file.
  const spans: { from: number; to: number; oFrom: number; oTo: number; redaction: Redaction }[] = [];
  let text = "";
  let kept = 0;
  for (const r of redactions) {
    text += original.slice(kept, r.at);
    spans.push({ from: text.length, to: text.length + r.marker.length, oFrom: r.at, oTo: r.at + r.value.length, redaction: r });
    text += r.marker;
    kept = r.at + r.value.length;
  }
  text += original.slice(kept);

  /** The last span starting at or before `index`. */
  const spanBefore = (index: number) => {
    let low = 0;
    let high = spans.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (spans[mid]!.from <= index) low = mid + 1;
      else high = mid;
    }
    return spans[low - 1];
  };
  const toOriginal = (index: number) => {
    const span = spanBefore(index);
    if (!span) return index;
    if (index === span.from) return span.oFrom;
    if (index < span.to) throw new Error(`index ${index} falls inside ${span.redaction.marker}`);
    return span.oTo + (index - span.to);
  };
  const context = (at: number) => {
    const start = at === 0 ? 0 : text.lastIndexOf("\n", at - 1) + 1;
    const newline = text.indexOf("\n", at);
    const line = text.slice(start, newline === -1 ? text.length : newline);
    return { line: line.endsWith("\r") ? line.slice(0, -1) : line, column: at - start };
  };

  const fromRedactions = spans.map((s) => ({ marker: s.redaction.marker, value: s.redaction.value, at: s.from, ...context(s.from) }));
  // Marker-shaped text the file holds as text (a page about redaction) stands for itself.
  const literal = markerShapes(text)
    .filter(({ at, marker }) => {
      const span = spanBefore(at + marker.length - 1);
      return !span || span.to <= at;
    })
    .map(({ at, marker }) => ({ marker, value: marker, at, ...context(at) }));
  const held = [...fromRedactions, ...literal].sort((a, b) => a.at - b.at);

  return {
    text,
    held,
    original: (from, to) => original.slice(toOriginal(from), toOriginal(to)),
    inside(index) {
      const span = spanBefore(index);
      return span && index > span.from && index < span.to ? fromRedactions[spans.indexOf(span)] : undefined;
    },
    heldIn(from, to) {
      // `held` is in order: from the first at or after `from`, while they end by `to`.
      let low = 0;
      let high = held.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if (held[mid]!.at < from) low = mid + 1;
        else high = mid;
      }
      const within: HeldMarker[] = [];
      for (let i = low; i < held.length && held[i]!.at < to; i++) if (held[i]!.at + held[i]!.marker.length <= to) within.push(held[i]!);
      return within;
    },
  };
}
