import type { FileSlot, StagedWrite } from "./file-slot.ts";
import { ToolError } from "../tool.ts";

/** One file's part of a change: its new bytes and mode, or `remove`. `shown` names it in errors. */
export type SlotChange = { slot: FileSlot; shown: string } & ({ data: string | Uint8Array; mode: number } | { remove: true });

/**
 * Makes every change or none: each new content is first written beside its file under a temp name, and
 * only once all are staged are they renamed into place (and removals made), in order. A failure while
 * staging removes the temp files, so no file has changed. Only a rename failing (a file that became a
 * folder meanwhile) can stop part way, and the error then says which files were already written.
 */
export function commitChanges(changes: readonly SlotChange[]): void {
  const staged: (StagedWrite | undefined)[] = [];
  try {
    for (const change of changes) staged.push("remove" in change ? undefined : change.slot.stage(change.data, change.mode));
  } catch (err) {
    for (const write of staged) write?.discard();
    if (err instanceof ToolError) throw err;
    throw new ToolError(`Could not write ${changes[staged.length]!.shown}: ${(err as Error).message}. Nothing was changed.`);
  }
  for (const [i, change] of changes.entries()) {
    try {
      if (staged[i]) staged[i].commit();
      else change.slot.remove();
    } catch (err) {
      for (const write of staged.slice(i + 1)) write?.discard();
      const done = changes.slice(0, i).map((c) => c.shown);
      const rest = changes.slice(i).map((c) => c.shown);
      throw new ToolError(
        `Could not ${"remove" in change ? "remove" : "write"} ${change.shown}: ${(err as Error).message}. ` +
          `${done.length ? `Already changed: ${done.join(", ")}` : "Nothing was changed"}; not changed: ${rest.join(", ")}.`,
      );
    }
  }
}
