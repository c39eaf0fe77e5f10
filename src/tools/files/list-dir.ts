import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import { displayPath, relativePosix, resolveIn, modelPath } from "../../files/project-paths.ts";
import { entryNote } from "./entry-note.ts";
import { walkFiles } from "../../files/walk-files.ts";

export const LIST_MAX_ENTRIES = 500;
export const LIST_DEFAULT_DEPTH = 2;

const schema = z.object({
  path: z.string().optional(),
  depth: z.number().int().min(1).max(10).optional(),
});

export const listDir = defineTool({
  name: "list_dir",
  description:
    `List a folder (default: the project root) as an indented tree, folders ending in "/": \`depth\` levels ` +
    `(default ${LIST_DEFAULT_DEPTH}), at most ${LIST_MAX_ENTRIES} entries. Skips .git/ and what .gitignore hides.`,
  schema,
  kind: "read",
  subject: (args) => ({ paths: [args.path ?? "."] }),
  async run(args, ctx) {
    const dir = modelPath(ctx.root, args.path ?? ".");
    const info = await stat(dir).catch(() => undefined);
    const shown = displayPath(ctx.root, dir);
    if (!info) throw new ToolError(`Folder not found: ${shown}.`);
    if (!info.isDirectory()) throw new ToolError(`${shown} is a file, not a folder. Use read_file to read it.`);
    const { paths, truncated } = await walkFiles(ctx.root, dir, { includeDirs: true, maxDepth: args.depth ?? LIST_DEFAULT_DEPTH, signal: ctx.signal });
    if (paths.length === 0) return { output: `${shown}/ is empty (or everything in it is gitignored).` };
    const lines = [`${shown}/`];
    for (const p of paths.slice(0, LIST_MAX_ENTRIES)) {
      const abs = resolveIn(ctx.root, p);
      const rel = relativePosix(dir, abs).split("/");
      lines.push(`${"  ".repeat(rel.length)}${rel[rel.length - 1]}${p.endsWith("/") ? "/" : ""}${entryNote(ctx, abs)}`);
    }
    if (paths.length > LIST_MAX_ENTRIES) lines.push(`[${paths.length - LIST_MAX_ENTRIES}${truncated ? "+" : ""} more not shown; list a subfolder or use a smaller depth]`);
    return { output: lines.join("\n") };
  },
});
