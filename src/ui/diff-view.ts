import pc from "picocolors";

/** Colours a unified diff for the terminal: additions green, removals red, hunk headers cyan. */
export function renderDiff(diff: string, color: boolean): string {
  if (!color) return diff;
  const c = pc.createColors(true);
  return diff
    .split("\n")
    .map((line) => {
      if (line.startsWith("+++") || line.startsWith("---")) return c.bold(line);
      if (line.startsWith("@@")) return c.cyan(line);
      if (line.startsWith("+")) return c.green(line);
      if (line.startsWith("-")) return c.red(line);
      return line;
    })
    .join("\n");
}
