import { exportedSession, type ExportSource } from "../export/build-export.ts";
import type { SessionStore } from "../store/session-store.ts";

/**
 * A session's log made ready to export, with the sessions of the agents its calls started (each read
 * from its own log, in call order). A child whose log is gone or unreadable is left out with a warning;
 * the session itself unreadable gives the reason.
 */
export async function exportSource(store: SessionStore, id: string, warn: (line: string) => void): Promise<ExportSource | string> {
  const read = await store.read(id);
  if (!read.ok) return read.message;
  read.warnings.forEach(warn);
  if (read.damaged) warn(`! the log of session ${id} is damaged at line ${read.damaged.line} (${read.damaged.reason}); what follows is the ${read.events.length} lines before it`);
  const denied = new Set(read.events.flatMap((e) => (e.type === "result" && e.denied ? [e.callId] : [])));
  const children = [];
  for (const event of read.events) {
    if (event.type !== "result" || !event.child) continue;
    const child = await exportSource(store, event.child.sessionId, warn);
    if (typeof child === "string") warn(`! the ${event.child.agent} agent's session is left out: ${child}`);
    else children.push(exportedSession(child));
  }
  return { state: read.state, denied, children };
}
