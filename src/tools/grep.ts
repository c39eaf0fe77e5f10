import { realpath, stat } from "node:fs/promises";
import { basename } from "node:path";
import { z } from "zod";
import { defineTool, ToolError } from "./tool.ts";
import { displayPath, isInside, relativePosix, resolveIn } from "./resolve-path.ts";
import { plural } from "../text/plural.ts";
import { clipText } from "../text/clip-text.ts";
import { looksBinary } from "./text-file.ts";
import { walkFiles } from "./walk-files.ts";

export const GREP_MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;
const MAX_FILE_BYTES = 5 * 1024 * 1024;

const schema = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression to search for, e.g. \"function\\\\s+load\"."),
  path: z.string().optional().describe("File or folder to search (default: the project root)."),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts" (matched against the file name) or "src/**/*.ts".'),
});

export const grep = defineTool({
  name: "grep",
  description:
    `Search file contents with a JavaScript regular expression (case-sensitive; use [Aa] or alternation for case). ` +
    `Returns \`file:line: text\` for each matching line, at most ${GREP_MAX_MATCHES}. Skips binary files, files over 5 MB (named), .git/, what .gitignore hides, and files a direct read would be denied (secrets). ` +
    `Narrow with \`path\` or \`glob\` when there are too many matches.`,
  schema,
  kind: "read",
  subject: (args) => ({ paths: [args.path ?? "."] }),
  async run(args, ctx) {
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern);
    } catch (err) {
      throw new ToolError(`Invalid regular expression ${JSON.stringify(args.pattern)}: ${(err as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash.`);
    }
    const target = resolveIn(ctx.root, args.path ?? ".");
    const info = await stat(target).catch(() => undefined);
    if (!info) throw new ToolError(`Path not found: ${displayPath(ctx.root, target)}.`);
    const found = info.isDirectory() ? await filesUnder(ctx.root, target, args.glob) : [target];
    // Each file of a folder is judged as a read of it would be, and a link may not lead out of the folder.
    const realTarget = await realpath(target);
    const mayRead = async (abs: string) => !ctx.readDenied?.(abs) && isInside(await realpath(abs).catch(() => abs), realTarget);
    const files: string[] = [];
    let refused = 0;
    for (const abs of found) (info.isDirectory() && !(await mayRead(abs)) ? refused++ : files.push(abs));

    const hits: string[] = [];
    const tooLarge: string[] = [];
    let total = 0;
    for (const abs of files) {
      if (ctx.signal.aborted) break;
      const file = Bun.file(abs);
      if (file.size > MAX_FILE_BYTES) {
        tooLarge.push(displayPath(ctx.root, abs));
        continue;
      }
      const bytes = await file.bytes().catch(() => undefined);
      if (!bytes || looksBinary(bytes)) continue;
      const lines = new TextDecoder().decode(bytes).split("\n");
      const shown = displayPath(ctx.root, abs);
      lines.forEach((line, i) => {
        if (!regex.test(line)) return;
        total++;
        if (hits.length < GREP_MAX_MATCHES) hits.push(`${shown}:${i + 1}: ${clipText(line.replace(/\r$/, ""), MAX_LINE_CHARS)}`);
      });
    }
    const searched = displayPath(ctx.root, target);
    const where = searched === "." ? "the project root" : searched;
    const notes = [
      ...(tooLarge.length ? [`[not searched, over 5 MB: ${tooLarge.join(", ")}]`] : []),
      ...(refused ? [`[${plural(refused, "file")} skipped that this search may not read: secret files, or links out of ${where}]`] : []),
    ];
    if (total === 0) return { output: [`No matches for /${args.pattern}/ in ${where}${args.glob ? ` (files matching ${args.glob})` : ""}.`, ...notes].join("\n") };
    if (total > hits.length) hits.push(`[${total - hits.length} more matches not shown; narrow the pattern, path or glob]`);
    return { output: [...hits, ...notes].join("\n") };
  },
});

/** Files under `dir`; a glob without "/" is matched against the file name alone, so "*.ts" finds them at any depth. */
async function filesUnder(root: string, dir: string, pattern: string | undefined): Promise<string[]> {
  const { paths } = await walkFiles(root, dir);
  const files = paths.map((p) => resolveIn(root, p));
  if (!pattern) return files;
  const matcher = new Bun.Glob(pattern);
  const byName = !pattern.includes("/");
  return files.filter((abs) => matcher.match(byName ? basename(abs) : relativePosix(dir, abs)));
}
