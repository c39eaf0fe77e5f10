/**
 * Rows as aligned text columns, two spaces apart. Columns listed in `right` are right-aligned (numbers);
 * a left-aligned last column is left ragged so a long description does not pad every line.
 */
export function alignColumns(rows: readonly (readonly string[])[], opts: { right?: readonly number[] } = {}): string[] {
  const right = new Set(opts.right);
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (right.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
}
