import type { Message } from "../session/messages.ts";
import { reducerOf, SessionLogError } from "../session/reduce-session.ts";
import { LOG_VERSION, sessionEventSchema, type SessionEvent } from "../session/session-event.ts";
import type { ExportMessage, SessionExport } from "./export-schema.ts";

export type ImportPlan = { ok: true; events: SessionEvent[] } | { ok: false; reason: string };

/**
 * What a new session's log gets from an export, after its first line: the history in one `import`
 * event (and the task list). Only what the model can be sent again is kept — the export holds no
 * provider ids or encrypted reasoning, and what it says for readers (outcomes, diffs, costs) is left
 * out. Refused when the history is not one a run could have made, as the session's own reducer
 * judges it, or when it would not read back as a session event.
 */
export function importEvents(doc: SessionExport, at: string): ImportPlan {
  const turns = doc.messages.flatMap((m, i) => (m.role === "user" && m.turn !== undefined ? [{ start: i, at: m.at ?? doc.exportedAt }] : []));
  const made = sessionEventSchema.safeParse({ type: "import", from: { id: doc.session.id, exportedAt: doc.exportedAt }, messages: doc.messages.map(messageOf), turns, at });
  if (!made.success) return { ok: false, reason: `its history cannot be a session's (${made.error.issues[0]!.path.join(".")}: ${made.error.issues[0]!.message})` };
  const events: SessionEvent[] = [made.data, ...(doc.todos.length ? [{ type: "todos" as const, todos: doc.todos }] : [])];
  try {
    reducerOf([{ type: "session", v: LOG_VERSION, id: doc.session.id, at, cwd: doc.session.cwd, model: doc.session.model }, ...events]);
  } catch (err) {
    if (!(err instanceof SessionLogError)) throw err;
    return { ok: false, reason: err.reason };
  }
  return { ok: true, events };
}

/** The session's own message of an exported one; a person's images go with it where the session keeps them. */
function messageOf(m: ExportMessage): Message {
  switch (m.role) {
    case "user":
      return { role: "user", text: m.text, ...(m.images ? { images: m.images } : {}) };
    case "assistant":
      return {
        role: "assistant",
        model: m.model,
        parts: m.parts,
        ...(m.usage ? { usage: m.usage } : {}),
        ...(m.incomplete ? { incomplete: m.incomplete } : {}),
        ...(m.otherItems ? { otherItems: m.otherItems } : {}),
      };
    case "tool":
      return { role: "tool", results: m.results.map((r) => ({ callId: r.callId, output: r.output, ...(r.isError ? { isError: true } : {}), ...(r.images ? { images: r.images } : {}) })) };
    case "compaction":
      return m;
  }
}
