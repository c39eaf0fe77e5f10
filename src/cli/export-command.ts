import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildExport } from "../export/build-export.ts";
import { exportSource } from "./export-source.ts";
import { exportHtml } from "../export/export-html.ts";
import { exportMarkdown } from "../export/export-markdown.ts";
import { atomicWrite } from "../store/atomic-write.ts";
import type { SessionStore } from "../store/session-store.ts";
import { resolveId } from "../services/open-session.ts";
import { UsageError } from "../exit/usage-error.ts";
import { VERSION } from "../version.ts";
import { parseErrorLine } from "./args.ts";
import { EXPORT_USAGE } from "./subcommand-help.ts";

const FORMATS = { md: exportMarkdown, html: exportHtml, json: (doc: object) => JSON.stringify(doc, null, 2) + "\n" } as const;
type Format = keyof typeof FORMATS;

/**
 * `shiro export <session>`: the conversation from its log (already redacted: nothing is added to it)
 * as Markdown, one HTML page or the versioned JSON `shiro import` reads, on stdout or into `-o`'s
 * file, written whole or not at all.
 */
export async function exportCommand(args: string[], store: SessionStore, io: { out: (text: string) => void; err: (line: string) => void }): Promise<number> {
  const { format, output, prefix } = exportArgs(args);
  const id = await resolveId(store, prefix, io.err);
  const source = await exportSource(store, id, io.err);
  if (typeof source === "string") throw new UsageError(source);
  const text = FORMATS[format](buildExport(source, { exportedAt: new Date().toISOString(), shiro: VERSION }));
  if (output === undefined) {
    io.out(text.replace(/\n$/, ""));
    return 0;
  }
  try {
    await atomicWrite(output, text, 0o600);
  } catch (err) {
    io.err(`shiro: export: could not write ${output}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return 1;
  }
  io.err(`exported session ${id} to ${output} (${format})`);
  return 0;
}

function exportArgs(args: string[]): { format: Format; output?: string; prefix: string } {
  const options = { format: { type: "string" }, output: { type: "string", short: "o" } } as const;
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(parseErrorLine((e as Error).message, EXPORT_USAGE, Object.keys(options)));
  }
  const { values, positionals } = parsed;
  const [prefix, extra] = positionals;
  if (prefix === undefined) throw new UsageError(`export needs a session id from shiro sessions (${EXPORT_USAGE})`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (${EXPORT_USAGE})`);
  const format = values.format ?? "md";
  if (!Object.hasOwn(FORMATS, format)) throw new UsageError(`--format is md, json or html, not "${format}"`);
  if (values.output !== undefined && isFolder(values.output)) throw new UsageError(`-o ${values.output} is a folder; name the file the export goes to`);
  return { format: format as Format, prefix, ...(values.output !== undefined ? { output: values.output } : {}) };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // not there yet: made with the export
  }
}
