import { z } from "zod";
import { defineTool, ToolError, type ToolOutput } from "../tool.ts";
import { displayPath, modelPath } from "../../files/project-paths.ts";
import { imageOf } from "../../files/image-of.ts";
import { formatBytes } from "../../text/format-bytes.ts";
import { missingFileError, readFileBytes, refuseBinary } from "./text-file.ts";

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_CHARS = 30_000;

const schema = z.object({
  path: z.string().min(1),
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).optional(),
});

export const readFile = defineTool({
  name: "read_file",
  description:
    `Read a text file as lines numbered like \`cat -n\` (not part of the file): \`limit\` lines (default ${READ_DEFAULT_LIMIT}) ` +
    `from \`offset\` (default 1), at most ${READ_MAX_CHARS} characters; the result says which \`offset\` continues. Binary files are refused.`,
  schema,
  kind: "read",
  subject: (args) => ({ paths: [args.path] }),
  async run(args, ctx) {
    const abs = modelPath(ctx.root, args.path);
    const bytes = await readFileBytes(ctx, abs);
    if (bytes === undefined) throw await missingFileError(ctx.root, abs);
    const shown = displayPath(ctx.root, abs);
    const image = imageOf(bytes, shown);
    if (image) return imageOutput(image, shown, bytes.length);
    refuseBinary(bytes, shown);
    return { output: numberLines(new TextDecoder().decode(bytes), shown, args.offset ?? 1, args.limit ?? READ_DEFAULT_LIMIT) };
  },
});

/** A file whose bytes are an image the API reads: the image itself, after a line naming it; one too large, an error saying so. */
function imageOutput(image: NonNullable<ReturnType<typeof imageOf>>, shown: string, bytes: number): ToolOutput {
  if ("refused" in image) throw new ToolError(`${image.refused}.`);
  return { output: `[image: ${shown}, ${image.image.mediaType}, ${formatBytes(bytes)}]`, images: [image.image] };
}

/** The `cat -n` window of a text, with notes on what was left out and how to get it. Pure. */
export function numberLines(text: string, shown: string, offset: number, limit: number): string {
  if (text === "") return `(${shown} is empty)`;
  const lines = text.split(/\r?\n/);
  if (text.endsWith("\n")) lines.pop();
  if (offset > lines.length) throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${lines.length} lines.`);
  const end = Math.min(lines.length, offset - 1 + limit);
  let out = "";
  let last = offset - 1;
  let cut = 0;
  for (let i = offset - 1; i < end; i++) {
    const line = `${String(i + 1).padStart(6)}\t${lines[i]}\n`;
    if (out.length + line.length > READ_MAX_CHARS) {
      // Keep whole lines; only a first line longer than the cap is itself cut.
      const room = last === offset - 1 ? READ_MAX_CHARS - out.length : 0;
      out += line.slice(0, room);
      if (room > 0) last = i + 1;
      cut = lines.slice(i, end).reduce((sum, l, k) => sum + `${String(i + k + 1).padStart(6)}\t${l}\n`.length, 0) - room;
      break;
    }
    out += line;
    last = i + 1;
  }
  const notes: string[] = [];
  if (cut > 0) notes.push(`[truncated ${cut} chars]`);
  if (last < lines.length) notes.push(`[showing lines ${offset}-${last} of ${lines.length}; continue with offset=${last + 1}]`);
  return out + notes.join("\n");
}
