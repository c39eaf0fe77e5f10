import type { Key } from "./key-decoder.ts";
import { movePick } from "./menu-pick.ts";

/** A list the person picks one row of (the turns /rewind offers): always one row picked. */
export type PickList = { title: string; rows: readonly string[]; hint: string; pick: number };

/** What a key does to the list: moves the pick, chooses a row, cancels (Esc, Ctrl-C) or quits (Ctrl-D). */
export type PickStep = { next: PickList } | { chosen: number } | { cancelled: true } | { eof: true };

/**
 * ↑/↓ (and Ctrl-P/N) move, wrapping as the slash menu does; Home/End jump to the ends; Enter takes the
 * picked row. Any other key leaves the list as it is: a stray letter must not undo anything.
 */
export function pickKey(list: PickList, key: Key): PickStep {
  const move = (pick: number) => ({ next: { ...list, pick } });
  switch (key.name) {
    case "up":
    case "ctrl-p":
      return move(movePick(list.pick, list.rows.length, "up") ?? 0);
    case "down":
    case "ctrl-n":
      return move(movePick(list.pick, list.rows.length, "down") ?? 0);
    case "home":
    case "pageup":
      return move(0);
    case "end":
    case "pagedown":
      return move(Math.max(0, list.rows.length - 1));
    case "enter":
      return key.meta ? { next: list } : { chosen: list.pick };
    case "escape":
    case "ctrl-c":
      return { cancelled: true };
    case "ctrl-d":
      return { eof: true };
    default:
      return { next: list };
  }
}
