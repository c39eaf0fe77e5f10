import { realpathSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createCheckpointStore } from "../checkpoint/checkpoint-store.ts";
import { pruneCheckpoints } from "../checkpoint/prune-checkpoints.ts";
import { formatBytes } from "../text/format-bytes.ts";
import { plural } from "../text/plural.ts";
import { turnLine, turnRows, undoneLines } from "../checkpoint/undo-report.ts";
import { finishUndos, openForUndo, turnRecords, undoTurns } from "../checkpoint/undo-turns.ts";
import type { SessionStore } from "../store/session-store.ts";
import { createSessionStore } from "../store/session-store.ts";
import { cannotWrite } from "../store/writable-dir.ts";
import { parseErrorLine, withNegativeValues } from "./args.ts";
import type { Config } from "./config.ts";
import { resolveId } from "../runtime/open-session.ts";
import { UsageError } from "../exit/usage-error.ts";
import { UNDO_USAGE } from "./subcommand-help.ts";


/**
 * `shiro undo`: puts back the files the newest turn (of the newest session in this folder, or `-r`'s)
 * changed and takes the turn out of the history; `--to` rewinds several, `--list` shows them.
 */
export async function undoCommand(args: string[], config: Config, io: { out: (line: string) => void; err: (line: string) => void; cwd: string }): Promise<number> {
  let values: { list?: boolean; to?: string; resume?: string; force?: boolean; json?: boolean; prune?: boolean };
  try {
    const options = { list: { type: "boolean" }, to: { type: "string" }, resume: { type: "string", short: "r" }, force: { type: "boolean" }, json: { type: "boolean" }, prune: { type: "boolean" } } as const;
    ({ values } = parseArgs({ args: withNegativeValues(args, options), options, strict: true }));
  } catch (e) {
    throw new UsageError(parseErrorLine((e as Error).message, UNDO_USAGE, ["list", "to", "resume", "force", "json", "prune"]));
  }
  // An undo writes its journal before it touches a file: where it cannot, nothing starts (a listing only reads).
  const unwritable = cannotWrite(join(config.home, "checkpoints"));
  if (unwritable && !values.list) {
    io.err(`shiro: undo: cannot ${values.prune ? "prune" : "undo"} while ${config.home} cannot be written (${unwritable}); nothing was changed`);
    return 1;
  }
  if (values.prune) return prune(config, io, values.json === true);
  const to = values.to === undefined ? undefined : Number(values.to);
  if (to !== undefined && !(Number.isInteger(to) && to > 0)) throw new UsageError(`--to takes a turn number from shiro undo --list, got "${values.to}"`);
  const sessions = createSessionStore(join(config.home, "sessions"));
  const store = createCheckpointStore(join(config.home, "checkpoints"));
  const open = openForUndo(sessions, io.err);
  if (!unwritable) await finishUndos({ store, root: realpathSync(io.cwd), open, warn: io.err });

  const id = values.resume ? await resolveId(sessions, values.resume, io.err) : await newestHere(sessions, io.cwd, io.err);
  const opened = await sessions.open(id, io.err, { copyIfOpen: false });
  if (!opened.ok) throw new UsageError(opened.error.message);
  const session = opened.session;
  try {
    const { state } = session;
    if (values.list) {
      const rows = turnRows(state.turns, turnRecords(store, state, io.err));
      if (values.json) io.out(JSON.stringify({ session: state.id, turns: rows }));
      else if (!rows.length) io.out(`session ${state.id.slice(0, 8)} has no turn to undo`);
      else {
        io.out(`session ${state.id.slice(0, 8)} · ${state.cwd}`);
        rows.forEach((row) => io.out(turnLine(row, process.stdout.columns || 100)));
      }
      return 0;
    }
    const done = await undoTurns({ session: state, turn: to, force: values.force, store, keptDir: join(config.home, "undo-kept"), append: (e) => session.append(e), warn: io.err });
    if (done.ok) await sessions.remember(state);
    if (values.json) io.out(JSON.stringify({ session: state.id, ...done }));
    else if (done.ok) undoneLines(done).forEach(io.out);
    else io.err(`shiro: undo: ${done.message}`);
    return done.ok ? 0 : 1;
  } finally {
    session.close();
  }
}

function prune(config: Config, io: { out: (line: string) => void }, json: boolean): number {
  const done = pruneCheckpoints(createCheckpointStore(join(config.home, "checkpoints")), join(config.home, "sessions"));
  io.out(json ? JSON.stringify(done) : `removed the checkpoints of ${plural(done.sessions, "session")} no longer saved, and ${plural(done.blobs, "stored file")} nothing refers to (${formatBytes(done.bytes)})`);
  return 0;
}

async function newestHere(store: SessionStore, cwd: string, warn: (line: string) => void): Promise<string> {
  const { sessions, warnings } = await store.list({ cwd });
  warnings.forEach(warn);
  const newest = sessions[0];
  if (!newest) throw new UsageError(`no saved session for ${cwd}; nothing to undo (shiro sessions --all lists every folder's)`);
  return newest.id;
}
