import { imageOf } from "../../files/image-of.ts";
import { ToolError, type ToolContext } from "../tool.ts";

/** A file's bytes and permission bits, as a slot reads them (file-slot.ts, which reads through here). */
type Readable = { readonly path: string; read(): { bytes: Uint8Array; mode: number } | undefined };

/**
 * The file in an open slot as the tools should see it: inside an editor that reads for shiro, its
 * buffer (unsaved edits included) for a text file on disk; the disk's bytes otherwise. The slot was
 * judged where it really is before this runs, so the editor is only asked about a path the disk would give.
 */
export async function readThrough(ctx: Pick<ToolContext, "files">, slot: Readable, shown: string): Promise<{ bytes: Uint8Array; mode: number } | undefined> {
  const file = slot.read();
  const read = ctx.files?.read;
  // A new file, an image or a binary one is the disk's: an editor's text of it would be no copy.
  if (!file || !read || file.bytes.includes(0) || imageOf(file.bytes, shown)) return file;
  try {
    return { bytes: new TextEncoder().encode(await read(slot.path)), mode: file.mode };
  } catch (err) {
    throw new ToolError(`The editor could not give the text of ${shown}: ${(err as Error).message}. Nothing was changed.`);
  }
}
