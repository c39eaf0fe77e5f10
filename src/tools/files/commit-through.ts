import { ToolError, type ToolContext } from "../tool.ts";
import { commitChanges, type SlotChange } from "./commit-changes.ts";

/**
 * Makes the changes: on disk all or none (commit-changes.ts), or, inside an editor that writes for
 * shiro, each new text handed to it in order (a removal is still the disk's: the protocol has none).
 */
export async function commitThrough(ctx: Pick<ToolContext, "files">, changes: readonly SlotChange[]): Promise<void> {
  const write = ctx.files?.write;
  if (!write) return commitChanges(changes);
  const done: string[] = [];
  for (const change of changes) {
    try {
      if ("remove" in change) change.slot.remove();
      else await write(change.slot.path, typeof change.data === "string" ? change.data : new TextDecoder("utf-8", { ignoreBOM: true }).decode(change.data));
    } catch (err) {
      const already = done.length ? `Already changed: ${done.join(", ")}` : "Nothing was changed";
      throw new ToolError(`The editor could not ${"remove" in change ? "remove" : "write"} ${change.shown}: ${(err as Error).message}. ${already}.`);
    }
    done.push(change.shown);
  }
}
