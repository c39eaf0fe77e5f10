import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool, ToolError } from "./tool.ts";
import { displayPath, relativePosix, resolveIn } from "./resolve-path.ts";
import { walkFiles } from "./walk-files.ts";

export const GLOB_MAX_RESULTS = 200;

const schema = z.object({
  pattern: z.string().min(1).describe('Glob pattern relative to `path`, e.g. "**/*.ts" or "src/*.{js,json}".'),
  path: z.string().optional().describe("Folder to search in (default: the project root)."),
});

export const glob = defineTool({
  name: "glob",
  description:
    `Find files by name with a glob pattern (\`*\` within one folder, \`**\` across folders, \`{a,b}\`, \`?\`, \`[abc]\`). ` +
    `Skips what .gitignore hides and .git/. Returns matching file paths sorted, at most ${GLOB_MAX_RESULTS}; use a narrower pattern or path for more.`,
  schema,
  kind: "read",
  subject: (args) => ({ paths: [args.path ?? "."] }),
  async run(args, ctx) {
    const dir = resolveIn(ctx.root, args.path ?? ".");
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new ToolError(`${displayPath(ctx.root, dir)} is not a folder. Give glob a folder as \`path\` (or leave it out for the project root).`);
    const matcher = new Bun.Glob(args.pattern.replace(/^(\.\/)+/, ""));
    const { paths, truncated } = await walkFiles(ctx.root, dir);
    const matches = paths
      .map((p) => resolveIn(ctx.root, p))
      .filter((abs) => matcher.match(relativePosix(dir, abs)))
      .map((abs) => displayPath(ctx.root, abs))
      .sort();
    const shown = displayPath(ctx.root, dir);
    const where = shown === "." ? "the project root" : shown;
    if (matches.length === 0) return { output: `No files match ${args.pattern} in ${where}.${truncated ? " (The folder is too large to search fully.)" : ""}` };
    const lines = matches.slice(0, GLOB_MAX_RESULTS);
    if (matches.length > GLOB_MAX_RESULTS) lines.push(`[${matches.length - GLOB_MAX_RESULTS} more not shown; narrow the pattern or path]`);
    if (truncated) lines.push("[the folder is too large; only part of it was searched]");
    return { output: lines.join("\n") };
  },
});
