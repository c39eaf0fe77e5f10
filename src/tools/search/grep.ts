import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool, ToolError, type ToolContext } from "../tool.ts";
import { displayPath, resolveIn, modelPath } from "../../files/project-paths.ts";
import { plural } from "../../text/plural.ts";
import { formatCount } from "../../text/format-count.ts";
import { findRipgrep, noticeNoRipgrep, ripgrepUnusable } from "./find-ripgrep.ts";
import { MatchList } from "./match-list.ts";
import { ripgrepSearch } from "./ripgrep-search.ts";
import { rustRegex } from "./rust-regex.ts";
import { SCAN_MAX_BYTES, scanFiles } from "./scan-files.ts";
import { searchScope, type SearchScope } from "./search-scope.ts";
import { secretTest } from "./secret-test.ts";
import { walkFiles, WALK_LIMIT } from "../../files/walk-files.ts";

export const GREP_MAX_MATCHES = 200;
const MAX_LINE_CHARS = 300;

const schema = z.object({
  pattern: z.string().min(1),
  path: z.string().optional(),
  glob: z.string().optional(),
});

/** What a search found besides its matches, for the notes under them. */
type Found = { refused: number; tooLarge: string[]; cut: boolean };

export const grep = defineTool({
  name: "grep",
  description:
    `Search files under \`path\` (file or folder; default: the project root) for a JavaScript regex, case-sensitive ` +
    `([Aa] for any case); \`glob\` keeps files matching it: "*.ts" (a name) or "src/**/*.ts". ` +
    `Returns \`file:line: text\` per matching line, sorted, at most ${GREP_MAX_MATCHES}; skips binary files, .git/, ` +
    `what .gitignore hides, symbolic links and files you may not read (secrets).`,
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
    const target = modelPath(ctx.root, args.path ?? ".");
    const info = await stat(target).catch(() => undefined);
    if (!info) throw new ToolError(`Path not found: ${displayPath(ctx.root, target)}.`);
    const matches = new MatchList(GREP_MAX_MATCHES, MAX_LINE_CHARS);
    // A file named as `path` was judged by the gate already; a folder's files are judged one by one.
    const found = info.isDirectory()
      ? await searchFolder(searchScope(ctx.root, target, args.glob, ctx), regex, matches, ctx)
      : { ...(await scanFiles({ root: ctx.root, files: [target], regex, matches, signal: ctx.signal })), cut: false };
    return { output: report(args, displayPath(ctx.root, target), matches, found) };
  },
});

/** ripgrep when a system folder has it and it can take the pattern; else (or when it cannot run it) the JavaScript scan. */
async function searchFolder(scope: SearchScope, regex: RegExp, matches: MatchList, ctx: ToolContext): Promise<Found> {
  const found = findRipgrep();
  const rg = "rg" in found ? found.rg : undefined;
  const rust = rustRegex(regex.source);
  if (rg && rust !== undefined) {
    const secretGlobs = ctx.secretGlobs ?? [];
    const outcome = await ripgrepSearch({ rg, scope, rust, regex, secretGlobs, env: ctx.env, signal: ctx.signal, matches });
    if ("refused" in outcome) return { refused: outcome.refused, tooLarge: [], cut: false };
    if (outcome.broken) {
      ripgrepUnusable(rg);
      noticeNoRipgrep(ctx.notice, `${rg} cannot run this search (${outcome.unusable})`);
    }
  } else if ("why" in found) noticeNoRipgrep(ctx.notice, found.why);
  const secret = secretTest(ctx.secretGlobs);
  let unopened = 0;
  // Counted as the rg listing counts them: the secrets grep would have searched (those the glob takes).
  const skip = (name: string, path: string) => {
    if (!secret(name, path)) return false;
    if (scope.globTakes(resolveIn(scope.root, path))) unopened++;
    return true;
  };
  const walk = await walkFiles(scope.root, scope.dir, { skip, noLinks: true, signal: ctx.signal });
  const files = walk.paths.map((p) => resolveIn(scope.root, p)).filter(scope.globTakes);
  const scanned = await scanFiles({ root: scope.root, files, regex, matches, signal: ctx.signal, mayShow: scope.mayShow });
  return { refused: unopened + scanned.refused, tooLarge: scanned.tooLarge, cut: walk.truncated };
}

function report(args: { pattern: string; glob?: string }, searched: string, matches: MatchList, found: Found): string {
  const where = searched === "." ? "the project root" : searched;
  const notes = [
    ...(found.tooLarge.length ? [`[not searched, over ${SCAN_MAX_BYTES / 1024 / 1024} MB: ${found.tooLarge.join(", ")}]`] : []),
    ...(found.refused ? [`[${plural(found.refused, "file")} skipped that this search may not read: secret files, or files a rule denies]`] : []),
    ...(found.cut ? [`[searched only the first ${formatCount(WALK_LIMIT)} files of ${where} (the most one search walks); search its subfolders for the rest]`] : []),
  ];
  const shown = matches.shown();
  if (matches.total === 0) return [`No matches for /${args.pattern}/ in ${where}${args.glob ? ` (files matching ${args.glob})` : ""}.`, ...notes].join("\n");
  const lines = shown.map((m) => `${m.path}:${m.line}: ${m.text}`);
  if (matches.total > shown.length) lines.push(`[${matches.total - shown.length} more matches not shown; narrow the pattern, path or glob]`);
  return [...lines, ...notes].join("\n");
}
