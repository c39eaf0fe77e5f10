import pc from "picocolors";
import type { AssistantMessage, Message, InputImage, ToolResult } from "../session/messages.ts";
import type { SessionState } from "../session/reduce-session.ts";
import { runStateOf } from "../session/run-state.ts";
import { costOf } from "../pricing/cost.ts";
import { sessionTotals } from "../pricing/session-totals.ts";
import { titleOf } from "../store/session-title.ts";
import { resultMark, resultSummary } from "../ui/tool-line.ts";
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportedSession, type ExportMessage, type ExportResult, type SessionExport } from "./export-schema.ts";
import { toolDiff } from "./tool-diff.ts";

/** A session as its log reduced, with what only the log's events tell: the calls that were denied. */
export type ExportSource = { state: SessionState; denied: ReadonlySet<string>; children?: ExportedSession[] };

/** The whole export of a session (docs/export.md): the header, then the conversation. */
export function buildExport(source: ExportSource, made: { exportedAt: string; shiro: string }): SessionExport {
  return { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: made.exportedAt, shiro: made.shiro, ...exportedSession(source) };
}

/**
 * One session's conversation, from its state only: what the log holds, already redacted. Provider
 * ids and encrypted reasoning are left out (valid only for the account and model that made them).
 */
export function exportedSession({ state, denied, children = [] }: ExportSource): ExportedSession {
  const totals = sessionTotals(state.messages);
  const prompts = new Map(state.turns.map((t) => [t.start, t]));
  const calls = new Map(state.messages.flatMap((m) => (m.role === "assistant" ? m.parts.flatMap((p) => (p.type === "tool-call" ? [[p.callId, p] as const] : [])) : [])));
  const result = (r: ToolResult): ExportResult => {
    const call = calls.get(r.callId);
    const name = call?.name ?? "";
    const failed = r.isError === true;
    const diff = call && toolDiff(call.name, call.arguments, r);
    const shown = { name, output: r.output, isError: failed, denied: denied.has(r.callId) };
    const images = imagesOf(r);
    return {
      callId: r.callId,
      output: r.output,
      ...(failed ? { isError: true } : {}),
      ...(images ? { images } : {}),
      tool: name,
      ...(shown.denied ? { denied: true } : {}),
      outcome: `${resultMark(shown, pc.createColors(false))} ${resultSummary(shown)}`,
      ...(diff ? { diff } : {}),
      ...(r.child ? { child: r.child } : {}),
    };
  };
  const message = (m: Message, i: number): ExportMessage => {
    switch (m.role) {
      case "user": {
        const turn = prompts.get(i);
        const images = imagesOf(m);
        return { role: "user", text: m.text, ...(turn ? { turn: turn.turn, at: turn.at } : {}), ...(images ? { images } : {}) };
      }
      case "assistant":
        return answer(m);
      case "tool":
        return { role: "tool", results: m.results.map(result) };
      case "compaction":
        return { role: "compaction", summary: m.summary };
    }
  };
  return {
    session: {
      id: state.id,
      title: titleOf(state.messages),
      cwd: state.cwd,
      model: state.model,
      createdAt: state.createdAt,
      updatedAt: state.updatedAt,
      state: runStateOf(state),
      ...(state.forkedFrom ? { forkedFrom: state.forkedFrom } : {}),
      ...(state.importedFrom ? { importedFrom: state.importedFrom } : {}),
    },
    totals: { usage: totals.usage, costUsd: totals.costUsd ?? null },
    todos: state.notebook.todos,
    messages: state.messages.map(message),
    children,
  };
}

function answer(m: AssistantMessage): ExportMessage {
  const parts = m.parts.map((p) => {
    if (p.type === "reasoning") return { type: p.type, summary: p.summary };
    if (p.type === "text") return { type: p.type, text: p.text, ...(p.phase ? { phase: p.phase } : {}) };
    return { type: p.type, callId: p.callId, name: p.name, arguments: p.arguments };
  });
  return {
    role: "assistant",
    model: m.model,
    parts,
    ...(m.usage ? { usage: m.usage, costUsd: costOf(m.model)(m.usage) ?? null } : {}),
    ...(m.incomplete ? { incomplete: m.incomplete } : {}),
    ...(m.otherItems?.length ? { otherItems: m.otherItems } : {}),
  };
}

/** The images a prompt or a result holds, if any. */
const imagesOf = (m: { images?: InputImage[] }): InputImage[] | undefined => (m.images?.length ? m.images : undefined);
