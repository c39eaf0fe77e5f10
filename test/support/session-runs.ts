import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { SessionState } from "../../src/session/reduce-session.ts";
import { readSessionLog, sessionIds } from "../../src/store/session-files.ts";
import type { RecordedRequest } from "./strict-server.ts";
import { firstUserText } from "./scripts.ts";

/** Helpers for end-to-end session tests: what the binary left on disk, read back through the store. */

export const sessionsDir = (home: string) => join(home, "sessions");

/** The session logs (names) in a SHIRO_HOME. */
export const sessionFiles = (home: string): string[] => {
  try {
    return readdirSync(sessionsDir(home)).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
};

/** Every session of a home, its log reduced, newest last; fails on any warning, unreadable or damaged log. */
export async function loadAll(home: string): Promise<SessionState[]> {
  const dir = sessionsDir(home);
  const loaded: SessionState[] = [];
  for (const id of (await sessionIds(dir)).sort()) {
    const r = await readSessionLog(dir, id);
    if (!r.ok) throw new Error(r.message);
    if (r.warnings.length) throw new Error(`store warnings: ${r.warnings.join("; ")}`);
    if (r.damaged) throw new Error(`session ${id} is damaged at line ${r.damaged.line}: ${r.damaged.reason}`);
    loaded.push(r.state);
  }
  return loaded;
}

/** The requests whose first user message is `text` (one job among several sharing a server). */
export const requestsOf = (requests: readonly RecordedRequest[], text: string) =>
  requests.filter((r) => Array.isArray(r.body?.input) && firstUserText(r.body.input) === text);

/** Call ids whose output a request carried. */
export const outputIds = (requests: readonly RecordedRequest[]): Set<string> =>
  new Set(requests.flatMap((r) => (r.body?.input ?? []).filter((i: any) => i.type === "function_call_output").map((i: any) => i.call_id)));

/** Call id → result output, over a session's tool messages. */
export const resultsOf = (session: SessionState): Map<string, string> =>
  new Map(session.messages.flatMap((m) => (m.role === "tool" ? m.results.map((r) => [r.callId, r.output] as const) : [])));

/** Every tool call a session's assistant messages made. */
export const callsIn = (session: SessionState) =>
  session.messages.flatMap((m) => (m.role === "assistant" ? m.parts.filter((p) => p.type === "tool-call") : []));

/** Each input item as "role: text" or "type name", for readable comparisons. */
export const itemSummary = (input: any[]): string[] =>
  input.map((i) => {
    if (i.type === "message") return `${i.role}: ${i.content.map((c: any) => c.text).join("")}`;
    if (i.type === "function_call") return `call ${i.name}`;
    if (i.type === "function_call_output") return `output ${i.call_id}`;
    return i.type;
  });
