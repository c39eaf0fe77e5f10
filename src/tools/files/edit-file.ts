import { z } from "zod";
import { defineTool, type ToolContext } from "../tool.ts";
import { missingFileError } from "./text-file.ts";
import { openFile } from "./file-slot.ts";
import { commitThrough } from "./commit-through.ts";
import { editableText, editedBytes } from "./editable-text.ts";
import { fileDiff, lineChanges } from "./file-diff.ts";
import { editContent } from "./edit-content.ts";

const schema = z.object({
  path: z.string().min(1),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});
type EditArgs = z.infer<typeof schema>;

/**
 * The edit worked out on the file as read through its open folder, which the write then goes through;
 * on the file as the model was shown it, secret values put back where it wrote their markers (edit-content.ts).
 */
async function plan(args: EditArgs, ctx: Pick<ToolContext, "root" | "writeRefused" | "redactions" | "files">) {
  const { slot, abs, shown, file } = await openFile(ctx, args.path);
  try {
    if (!file) throw await missingFileError(ctx.root, abs);
    const { text, bom } = editableText(file.bytes, shown);
    return { slot, shown, before: text, bom, mode: file.mode, ...editContent(text, args, ctx.redactions ?? (() => []), shown) };
  } catch (err) {
    slot.close();
    throw err;
  }
}

export const editFile = defineTool({
  name: "edit_file",
  description:
    "Replace `old_string` with `new_string` in a file: it must match exactly, indentation included, " +
    "and occur once (add lines around it to make it unique) unless `replace_all`.",
  schema,
  kind: "write",
  subject: (args) => ({ paths: [args.path] }),
  async preview(args, ctx) {
    const edit = await plan(args, ctx).catch(() => undefined);
    edit?.slot.close();
    return edit && fileDiff(edit.shown, edit.before, edit.updated);
  },
  async run(args, ctx) {
    const { slot, shown, before, bom, mode, updated, count } = await plan(args, ctx);
    try {
      await commitThrough(ctx, [{ slot, shown, data: editedBytes(updated, bom), mode }]);
    } finally {
      slot.close();
    }
    const { added, removed } = lineChanges(before, updated);
    const times = count > 1 ? ` (${count} occurrences)` : "";
    return { output: `Edited ${shown}${times}: +${added} −${removed} lines`, display: fileDiff(shown, before, updated) };
  },
});
