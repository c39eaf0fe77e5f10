import type pc from "picocolors";
import { stopExitCode, stoppedWords, type StopSignal } from "../exit/stop-signals.ts";
import type { CurrentAgent } from "../agent/current-agent.ts";
import { ID_PREFIX_CHARS } from "../ui/sessions-table.ts";
import type { Turn } from "./repl-turn.ts";

/** How long quitting waits for an aborted turn to wind down before saving anyway. */
const QUIT_GRACE_MS = 2000;

/**
 * Quitting: once an aborted turn has recorded its partial answer (bounded, should a tool ignore the
 * abort) the session's log is let go, and the person told how to come back. The exit code says why it ended.
 */
export async function endSession(opts: { main: CurrentAgent; ending?: Turn; stoppedBy?: StopSignal; write: (text: string) => void; c: ReturnType<typeof pc.createColors> }): Promise<number> {
  const { main, ending, stoppedBy, c } = opts;
  if (ending) await Promise.race([ending.finished.promise, Bun.sleep(QUIT_GRACE_MS)]);
  await main.close();
  // Like /sessions shows it: the prefix -r accepts.
  // A session that could not be saved (a home that cannot be written) has nothing to come back to.
  const { session } = main.agent;
  const resume = session.messages.length && main.services.sessions.saves ? `resume with: shiro -r ${session.id.slice(0, ID_PREFIX_CHARS)}` : "";
  if (!stoppedBy) {
    if (resume) opts.write(`${c.dim(resume)}\n`);
    return 0;
  }
  process.stderr.write(`${c.yellow("!")} ${stoppedWords(stoppedBy)}${resume && `; the session is saved (${resume})`}\n`);
  return stopExitCode(stoppedBy);
}
