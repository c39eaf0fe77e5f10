import { z } from "zod";
import { defineTool, type ToolContext } from "./tool.ts";
import { openFile } from "./file-slot.ts";
import { commitChanges } from "./commit-changes.ts";
import { editableText } from "./editable-text.ts";
import { countLines, describeChange, fileDiff } from "./file-diff.ts";
import { plural } from "../text/plural.ts";

const schema = z.object({
  path: z.string().min(1),
  content: z.string(),
});
type WriteArgs = z.infer<typeof schema>;

/** The file as it is now, and its text for the diff (with its byte-order mark, as the new content must say it). */
async function open(args: WriteArgs, ctx: Pick<ToolContext, "root" | "writeRefused">) {
  const target = await openFile(ctx, args.path);
  let before: string | undefined;
  try {
    const text = target.file && editableText(target.file.bytes, target.shown);
    before = text && (text.bom ? "\uFEFF" : "") + text.text;
  } catch {
    // A binary or non-UTF-8 file is replaced whole all the same; there is just no text to diff.
  }
  return { ...target, before };
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
    return target && fileDiff(target.shown, target.file ? (target.before ?? "") : undefined, args.content);
  },
  async run(args, ctx) {
    const { slot, shown, file, before } = await open(args, ctx);
    try {
      const data = Buffer.from(args.content);
      if (file && data.equals(file.bytes)) return { output: `No change to ${shown}` };
      commitChanges([{ slot, shown, data, mode: file?.mode ?? 0o644 }]);
    } finally {
      slot.close();
    }
    if (file && before === undefined) {
      return { output: `Replaced ${shown}, which was not UTF-8 text, with ${plural(countLines(args.content), "line")}`, display: fileDiff(shown, "", args.content) };
    }
    return { output: describeChange(shown, before, args.content), display: fileDiff(shown, before, args.content) };
  },
});
