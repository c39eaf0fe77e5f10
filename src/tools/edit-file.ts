import { z } from "zod";
import { defineTool } from "./tool.ts";
import { displayPath, resolveIn } from "./resolve-path.ts";
import { missingFileError, readTextFile, writeTextFile } from "./text-file.ts";
import { fileDiff, lineChanges } from "./file-diff.ts";
import { planEdit } from "./plan-edit.ts";
import type { PreviewContext } from "./tool.ts";

const schema = z.object({
  path: z.string().min(1).describe("File to edit, relative to the project root (or absolute)."),
  old_string: z.string().describe("Exact text to replace, including indentation; must occur exactly once unless replace_all."),
  new_string: z.string().describe("Text to put in its place."),
  replace_all: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one."),
});
type EditArgs = z.infer<typeof schema>;

async function plan(args: EditArgs, ctx: PreviewContext) {
  const abs = resolveIn(ctx.root, args.path);
  const shown = displayPath(ctx.root, abs);
  const before = await readTextFile(ctx.root, abs);
  if (before === undefined) throw await missingFileError(ctx.root, abs);
  return { abs, shown, before, ...planEdit(before, args, shown) };
}

export const editFile = defineTool({
  name: "edit_file",
  description:
    "Replace an exact piece of text in an existing file. `old_string` must match the file exactly (whitespace included) " +
    "and occur once; add surrounding lines to make it unique, or set replace_all. Read the file first. " +
    "Use write_file to create files.",
  schema,
  kind: "write",
  subject: (args) => ({ paths: [args.path] }),
  async preview(args, ctx) {
    const edit = await plan(args, ctx).catch(() => undefined);
    return edit && fileDiff(edit.shown, edit.before, edit.updated);
  },
  async run(args, ctx) {
    const { abs, shown, before, updated, count } = await plan(args, ctx);
    await writeTextFile(abs, updated);
    const { added, removed } = lineChanges(before, updated);
    const times = count > 1 ? ` (${count} occurrences)` : "";
    return { output: `Edited ${shown}${times}: +${added} −${removed} lines`, display: fileDiff(shown, before, updated) };
  },
});
