import { z } from "zod";
import { defineTool, type ToolContext } from "../tool.ts";
import { openFile } from "./file-slot.ts";
import { commitThrough } from "./commit-through.ts";
import { editableText, type EditableText } from "./editable-text.ts";
import { countLines, describeChange, fileDiff } from "./file-diff.ts";
import { writeContent } from "./write-content.ts";
import { plural } from "../../text/plural.ts";

const schema = z.object({
  path: z.string().min(1),
  content: z.string(),
});
type WriteArgs = z.infer<typeof schema>;

/**
 * The file as it is now, its text for the diff (with its byte-order mark, as the new content must say
 * it), and what the write would put there (write-content.ts: the markers put back, the line breaks kept).
 */
async function open(args: WriteArgs, ctx: Pick<ToolContext, "root" | "writeRefused" | "redactions" | "files">) {
  const target = await openFile(ctx, args.path);
  try {
    let text: EditableText | undefined;
    try {
      text = target.file && editableText(target.file.bytes, target.shown);
    } catch {
      // A binary or non-UTF-8 file is replaced whole all the same; there is just no text to diff.
    }
    const before = text && (text.bom ? "\uFEFF" : "") + text.text;
    return { ...target, before, after: writeContent(args.content, text, ctx.redactions ?? (() => []), target.shown) };
  } catch (err) {
    target.slot.close();
    throw err;
  }
}

export const writeFile = defineTool({
  name: "write_file",
  description:
    "Create a file or replace all of it (missing folders are made, permissions kept). " +
    "To change part of a file, use edit_file or apply_patch.",
  schema,
  kind: "write",
  subject: (args) => ({ paths: [args.path] }),
  async preview(args, ctx) {
    const target = await open(args, ctx).catch(() => undefined);
    target?.slot.close();
    return target && fileDiff(target.shown, target.file ? (target.before ?? "") : undefined, target.after.text);
  },
  async run(args, ctx) {
    const { slot, shown, file, before, after } = await open(args, ctx);
    try {
      if (file && Buffer.from(after.bytes).equals(file.bytes)) return { output: `No change to ${shown}` };
      await commitThrough(ctx, [{ slot, shown, data: after.bytes, mode: file?.mode ?? 0o644 }]);
    } finally {
      slot.close();
    }
    if (file && before === undefined) {
      return { output: `Replaced ${shown}, which was not UTF-8 text, with ${plural(countLines(after.text), "line")}`, display: fileDiff(shown, "", after.text) };
    }
    return { output: describeChange(shown, before, after.text), display: fileDiff(shown, before, after.text) };
  },
});
