/**
 * Which row of the slash menu ↑/↓ have picked: none until an arrow is pressed, then moving with the
 * arrows and wrapping at either end. Pure; the live prompt keeps it and drops it when the text changes.
 */
export type MenuPick = number | undefined;

export function movePick(pick: MenuPick, rows: number, direction: "up" | "down"): MenuPick {
  if (rows === 0) return undefined;
  if (pick === undefined) return direction === "down" ? 0 : rows - 1;
  return (pick + (direction === "down" ? 1 : rows - 1)) % rows;
}

/** The command a menu row's usage names (`/model [id]` → `/model`). */
export const pickedCommand = (usage: string): string => usage.split(" ")[0]!;

/**
 * The rows of a list cut to `shown` with a "more" row, kept so that the picked row is visible: the
 * window starts at the top and moves down only as far as the pick needs.
 */
export function visibleWindow(total: number, shown: number, pick: MenuPick): { start: number; end: number } {
  if (total <= shown) return { start: 0, end: total };
  const room = shown - 1; // one row says how many more there are
  const start = pick === undefined || pick < room ? 0 : Math.min(pick - room + 1, total - room);
  return { start, end: start + room };
}
