import { realpathSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createCheckpointStore, type CheckpointStore } from "../checkpoint/checkpoint-store.ts";
import { clipLine } from "../text/one-line.ts";
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
import { resolveId } from "../services/open-session.ts";
import { UsageError } from "../exit/usage-error.ts";
import { UNDO_USAGE } from "./subcommand-help.ts";


/**
 * `shiro undo`: puts back the files the newest turn that changed files (of the newest session in this
 * folder that changed any, or `-r`'s newest turn) changed, and takes the turns from it on out of the
 * history; `--to` rewinds further, `--list` shows them.
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

  const picked = values.resume ? { id: await resolveId(sessions, values.resume, io.err) } : await newestThatChanged(sessions, store, io.cwd, io.err);
  const id = picked.id;
  const opened = await sessions.open(id, io.err, { copyIfOpen: false });
  if (!opened.ok) throw new UsageError(opened.error.message);
  const session = opened.session;
  try {
    const { state } = session;
    if (values.list) {
      const rows = turnRows(state.turns, turnRecords(store, state, io.err));
      if (values.json) io.out(JSON.stringify({ session: state.id, turns: rows }));
      else if (!rows.length) io.out(`session ${state.id} has no turn to undo`);
      else {
        // The whole id: one of this hour's sessions shares its first characters with the others.
        io.out(`session ${state.id} · ${state.cwd}`);
        rows.forEach((row) => io.out(turnLine(row, process.stdout.columns || 100)));
      }
      return 0;
    }
    const turn = to ?? ("turn" in picked ? picked.turn : undefined);
    if (!values.json && "turn" in picked) io.out(`session ${state.id}, the newest here that changed files: undoing from turn ${turn} (“${clipLine(state.turns.find((t) => t.turn === turn)?.text ?? "", 60)}”)`);
    const done = await undoTurns({ session: state, turn, force: values.force, store, keptDir: join(config.home, "undo-kept"), append: (e) => session.append(e), warn: io.err });
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

// How far back the sessions of a folder are looked through for one that changed files.
const LOOK_BACK = 20;

/**
 * The newest session of this folder whose turns still hold a file change, and its last such turn: a
 * newer session that only asked questions is passed over rather than "undone" to no effect while the
 * one that wrote the files stays. Without any, the newest session (whose listing says it has nothing).
 */
async function newestThatChanged(sessions: SessionStore, store: CheckpointStore, cwd: string, warn: (line: string) => void): Promise<{ id: string; turn?: number }> {
  const { sessions: listed, warnings } = await sessions.list({ cwd });
  warnings.forEach(warn);
  if (!listed[0]) throw new UsageError(`no saved session for ${cwd}; nothing to undo (shiro sessions --all lists every folder's)`);
  for (const entry of listed.slice(0, LOOK_BACK)) {
    const read = await sessions.read(entry.id);
    if (!read.ok) continue;
    const records = turnRecords(store, read.state, () => {});
    const changed = read.state.turns.filter((t) => Object.keys(records.get(t.turn)?.changes ?? {}).length > 0).at(-1);
    if (changed) return { id: entry.id, turn: changed.turn };
  }
  return { id: listed[0].id };
}
