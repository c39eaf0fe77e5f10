/** Below this many columns for the right side, wrapping reads worse than the terminal's own wrap. */
const MIN_RIGHT = 24;

/**
 * Aligned `left  right` rows indented by two, the right side word-wrapped under itself so a narrow
 * terminal does not break words or push text under the left column.
 */
export function twoColumns(rows: readonly (readonly [string, string])[], columns: number): string {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  const indent = 2 + width + 2;
  const room = columns - indent - 1;
  return rows
    .map(([left, right]) => {
      const lines = room >= MIN_RIGHT ? wrapWords(right, room) : [right];
      return [`  ${left.padEnd(width)}  ${lines[0]}`, ...lines.slice(1).map((l) => " ".repeat(indent) + l)].join("\n");
    })
    .join("\n");
}

function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  return [...lines, current];
}
