import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { importEvents } from "../export/import-events.ts";
import { parseExport } from "../export/parse-export.ts";
import type { SessionStore } from "../store/session-store.ts";
import { cannotWrite } from "../store/writable-dir.ts";
import { UsageError } from "../exit/usage-error.ts";
import { plural } from "../text/plural.ts";
import { parseErrorLine } from "./args.ts";
import { IMPORT_USAGE } from "./subcommand-help.ts";

/**
 * `shiro import <file>`: a JSON export becomes a new session of this folder (a new id), whose history
 * is the exported conversation, so `shiro -c` goes on with it. A file that is not such an export, or
 * whose history could not be a session's, is refused in one line and nothing is written.
 */
export async function importCommand(args: string[], store: SessionStore, io: { out: (text: string) => void; err: (line: string) => void; cwd: string }): Promise<number> {
  const file = importArgs(args);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const parsed = parseExport(text);
  if (!parsed.ok) throw new UsageError(`${file} is ${parsed.reason}; shiro import reads what shiro export --format json writes`);
  const { doc } = parsed;
  const plan = importEvents(doc, new Date().toISOString());
  if (!plan.ok) throw new UsageError(`${file} cannot be imported: ${plan.reason}`);
  const unwritable = cannotWrite(store.dir);
  if (unwritable) {
    io.err(`shiro: import: cannot save a session in ${store.dir} (${unwritable}); nothing was imported`);
    return 1;
  }
  const session = await store.create({ cwd: io.cwd, model: doc.session.model });
  try {
    session.append(...plan.events);
    await store.remember(session.state);
  } finally {
    session.close();
  }
  if (!store.saves) {
    rmSync(session.path, { force: true }); // half saved is not imported: no listing names it
    io.err(`shiro: import: the session could not be saved in ${store.dir}; nothing was imported`);
    return 1;
  }
  const { turns, messages } = session.state;
  io.out(`imported ${file} as session ${session.id} (${plural(turns.length, "turn")}, ${plural(messages.length, "message")}, from session ${doc.session.id}); shiro -c goes on with it`);
  return 0;
}

function importArgs(args: string[]): string {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args, options: {}, allowPositionals: true, strict: true }));
  } catch (e) {
    throw new UsageError(parseErrorLine((e as Error).message, IMPORT_USAGE, []));
  }
  if (positionals.length === 0) throw new UsageError(`import needs the file shiro export --format json wrote (${IMPORT_USAGE})`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}" (${IMPORT_USAGE})`);
  return positionals[0]!;
}
