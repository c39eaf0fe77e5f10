import { z } from "zod";
import { defineTool } from "./tool.ts";
import { displayPath, resolveIn } from "./resolve-path.ts";
import { readTextFile, writeTextFile } from "./text-file.ts";
import { describeChange, fileDiff } from "./file-diff.ts";

const schema = z.object({
  path: z.string().min(1).describe("File to write, relative to the project root (or absolute). Missing folders are created."),
  content: z.string().describe("The complete new content of the file."),
});

export const writeFile = defineTool({
  name: "write_file",
  description:
    "Create a file or replace its whole content. Creates missing parent folders and keeps the file's permissions. " +
    "Prefer edit_file or apply_patch to change part of an existing file. Reports what changed.",
  schema,
  kind: "write",
  subject: (args) => ({ paths: [args.path] }),
  async preview(args, ctx) {
    const abs = resolveIn(ctx.root, args.path);
    const before = await readTextFile(ctx.root, abs).catch(() => undefined);
    return fileDiff(displayPath(ctx.root, abs), before, args.content);
  },
  async run(args, ctx) {
    const abs = resolveIn(ctx.root, args.path);
    const shown = displayPath(ctx.root, abs);
    const before = await readTextFile(ctx.root, abs);
    if (before !== args.content) await writeTextFile(abs, args.content);
    return { output: describeChange(shown, before, args.content), display: fileDiff(shown, before, args.content) };
  },
});
