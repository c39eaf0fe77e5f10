import { readdir } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { editDistance } from "../../text/edit-distance.ts";
import { openSlot } from "./file-slot.ts";
import { readThrough } from "./read-through.ts";
import { ToolError, type ToolContext } from "../tool.ts";
import { displayPath } from "../../files/project-paths.ts";

/** Refuses a file with a NUL byte anywhere: read as text, or edited and written back, it would be garbled. */
export function refuseBinary(bytes: Uint8Array, shown: string): void {
  if (bytes.includes(0)) throw new ToolError(`${shown} is a binary file; it cannot be read or edited as text.`);
}

/**
 * Reads a file's bytes for read_file, or undefined when it does not exist. Folders and anything not a
 * regular file are refused. The file is opened through its folder held open and judged again where it
 * really is, so a folder swapped for a link after the call was judged cannot lead the read to a secret.
 */
export async function readFileBytes(ctx: Pick<ToolContext, "root" | "readDenied" | "files">, abs: string): Promise<Uint8Array | undefined> {
  const denied = ctx.readDenied;
  const refuse = denied && ((real: string) => (denied(real, abs) ? "a secret file, a deny rule covers it, or only a person may open it." : undefined));
  const slot = await openSlot(ctx.root, abs, refuse, "read");
  try {
    return (await readThrough(ctx, slot, displayPath(ctx.root, abs)))?.bytes;
  } finally {
    slot.close();
  }
}

/** "File not found" with up to three similar names from the same folder, when there are any. */
export async function missingFileError(root: string, abs: string): Promise<ToolError> {
  const wanted = basename(abs).toLowerCase();
  const names = await readdir(dirname(abs)).catch(() => undefined);
  const shown = displayPath(root, abs);
  if (!names) return new ToolError(`File not found: ${shown} (its folder ${displayPath(root, dirname(abs))} does not exist either).`);
  const near = names
    .map((name) => ({ name, score: similarity(wanted, name.toLowerCase()) }))
    .filter((n) => n.score >= 0.5)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((n) => displayPath(root, `${dirname(abs)}/${n.name}`));
  return new ToolError(`File not found: ${shown}.${near.length ? ` Did you mean: ${near.join(", ")}?` : ""}`);
}

/** 1 for equal strings, 0 for nothing in common (1 − edit distance / longer length). */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}
