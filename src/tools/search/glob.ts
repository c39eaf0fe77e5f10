import { lstat, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import { displayPath, isInside, relativePosix, resolveIn, modelPath } from "../../files/project-paths.ts";
import { entryNote } from "../files/entry-note.ts";
import { formatCount } from "../../text/format-count.ts";
import { loadIgnore, walkFiles, WALK_LIMIT } from "../../files/walk-files.ts";

export const GLOB_MAX_RESULTS = 200;

const schema = z.object({
  pattern: z.string().min(1),
  path: z.string().optional(),
});

export const glob = defineTool({
  name: "glob",
  description:
    `Find files by name under \`path\` (default: the project root): \`*\` within a folder, \`**\` across folders, \`{a,b}\`, ` +
    `e.g. "src/**/*.{ts,json}". Sorted paths, at most ${GLOB_MAX_RESULTS}; skips .git/ and what .gitignore hides.`,
  schema,
  kind: "read",
  subject: (args) => ({ paths: [args.path ?? "."] }),
  async run(args, ctx) {
    const dir = modelPath(ctx.root, args.path ?? ".");
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) throw new ToolError(`${displayPath(ctx.root, dir)} is not a folder. Give glob a folder as \`path\` (or leave it out for the project root).`);
    const pattern = args.pattern.replace(/^(\.\/)+/, "");
    const matcher = new Bun.Glob(pattern);
    const shown = displayPath(ctx.root, dir);
    const where = shown === "." ? "the project root" : shown;
    const ignoreRoot = isInside(dir, resolve(ctx.root)) ? resolve(ctx.root) : dir;
    // Only the pattern's fixed leading folders are walked (src/tools/**/*.ts walks src/tools alone).
    const lead = fixedLead(pattern);
    const start = await walkable(dir, lead, ignoreRoot);
    if (typeof start !== "string") return { output: `No files match ${args.pattern} in ${where}.${start.hidden ? ` (${start.hidden} is hidden by .gitignore; give it as \`path\` to search it.)` : ""}` };
    const { paths, truncated } = await walkFiles(ctx.root, start, { ignoreRoot, signal: ctx.signal });
    const matches = paths
      .map((p) => resolveIn(ctx.root, p))
      .filter((abs) => matcher.match(relativePosix(dir, abs)))
      .map((abs) => ({ abs, shown: displayPath(ctx.root, abs) }))
      .sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    const cut = truncated ? [`[searched only the first ${formatCount(WALK_LIMIT)} files (the most one walk lists); narrow the path for the rest]`] : [];
    if (matches.length === 0) return { output: [`No files match ${args.pattern} in ${where}.`, ...cut].join("\n") };
    const lines = matches.slice(0, GLOB_MAX_RESULTS).map((m) => m.shown + entryNote(ctx, m.abs));
    if (matches.length > GLOB_MAX_RESULTS) lines.push(`[${matches.length - GLOB_MAX_RESULTS} more not shown; narrow the pattern or path]`);
    return { output: [...lines, ...cut].join("\n") };
  },
});

/** The leading folders of a glob that hold no wildcard (`src/tools` of `src/tools/**\/*.ts`), never its last part. */
function fixedLead(pattern: string): string[] {
  const parts = pattern.split("/");
  const lead: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (part === "" || part === "." || part === ".." || /[*?[\]{}\\!]/.test(part)) break;
    lead.push(part);
  }
  return lead;
}

/**
 * Where a walk for the pattern starts: `dir` + `lead`, when a walk of `dir` would have gone there — a
 * real folder (not a symlink, which the walk does not follow), not .git, not hidden by .gitignore.
 */
async function walkable(dir: string, lead: string[], ignoreRoot: string): Promise<string | { hidden?: string }> {
  const ignore = loadIgnore(ignoreRoot);
  let at = dir;
  for (const part of lead) {
    at = join(at, part);
    const info = await lstat(at).catch(() => undefined);
    if (!info?.isDirectory()) return {};
    if (ignore.ignores(relativePosix(ignoreRoot, at), true)) return { hidden: relativePosix(dir, at) };
  }
  return at;
}
