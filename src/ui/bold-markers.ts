export type Span = { text: string; bold: boolean };

/**
 * Reasoning summaries arrive as Markdown whose headings are `**Title**`; a terminal shows them as
 * bold text instead of asterisks. Markers may be split across deltas, so a trailing `*` waits.
 */
export function createBoldMarkers() {
  let bold = false;
  let held = "";
  return {
    feed(delta: string): Span[] {
      const text = held + delta;
      held = "";
      const spans: Span[] = [];
      const push = (end: number) => end > start && spans.push({ text: text.slice(start, end), bold });
      let start = 0;
      for (let i = 0; i < text.length; i++) {
        if (text[i] !== "*") continue;
        if (i === text.length - 1) {
          push(i);
          held = "*";
          return spans;
        }
        if (text[i + 1] !== "*") continue;
        push(i);
        bold = !bold;
        start = ++i + 1;
      }
      push(text.length);
      return spans;
    },
    /** The block ended: a held `*` was text after all, and bold never carries into the next block. */
    flush(): Span[] {
      const spans = held ? [{ text: held, bold }] : [];
      [held, bold] = ["", false];
      return spans;
    },
  };
}
