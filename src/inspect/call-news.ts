import type { Message } from "../session/messages.ts";
import { titleOf } from "../store/session-title.ts";
import { formatCount } from "../text/format-count.ts";
import { plural } from "../text/plural.ts";

export type ResultNews = { callId: string; tool: string; chars: number; isError?: true; denied?: true };

/** Something a call had that the call before it did not. Assistant messages are not news: they are the model's own answers. */
export type News =
  | { kind: "prompt"; text: string; chars: number }
  | { kind: "results"; results: ResultNews[] }
  | { kind: "compaction"; chars: number }
  /** The history is shorter than the call before's: an undo took turns out of it. */
  | { kind: "cut"; from: number; to: number }
  | { kind: "model"; from: string; to: string }
  /** `files`: the subfolders' instruction files that joined them since the call before. */
  | { kind: "instructions"; chars: number; files?: string[] }
  | { kind: "tools"; names: string[]; added: string[]; removed: string[] }
  | { kind: "params"; keys: string[] }
  /** The note sent after the history (the task list, a new skill); chars 0: none any more. */
  | { kind: "trailer"; chars: number }
  /** A smaller request asked for, after the context window overflowed. */
  | { kind: "harder" };

/** One side of the comparison: what the log says a call was made of. */
export type CallSide = {
  model: string;
  messages: number;
  prompt: string;
  snapshot: { instructions: string; tools: unknown[] };
  params: Record<string, unknown>;
  trailer?: string;
};

const toolName = (tool: unknown): string => {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : "?";
};

/** What is new in a call against the one before it (`before` absent: the session's first call). */
export function callNews(opts: {
  before: CallSide | undefined;
  now: CallSide;
  added: readonly Message[];
  harder: boolean;
  toolNames: ReadonlyMap<string, string>;
  denied: ReadonlySet<string>;
  /** The instruction files that joined the session since the call before (`instructions` events). */
  joined?: readonly string[];
}): News[] {
  const { before, now } = opts;
  const news: News[] = [];
  const reused = now.messages - opts.added.length;
  if (before && reused < before.messages) news.push({ kind: "cut", from: before.messages, to: reused });
  for (const m of opts.added) {
    if (m.role === "user") news.push({ kind: "prompt", text: titleOf([m]), chars: m.text.length });
    else if (m.role === "compaction") news.push({ kind: "compaction", chars: m.summary.length });
    else if (m.role === "tool") {
      const results = m.results.map((r): ResultNews => ({
        callId: r.callId,
        tool: opts.toolNames.get(r.callId) ?? "?",
        chars: r.output.length,
        ...(r.isError ? { isError: true as const } : {}),
        ...(opts.denied.has(r.callId) ? { denied: true as const } : {}),
      }));
      news.push({ kind: "results", results });
    }
  }
  if (before && before.model !== now.model) news.push({ kind: "model", from: before.model, to: now.model });
  if (before?.prompt !== now.prompt) {
    const { instructions, tools } = now.snapshot;
    if (before?.snapshot.instructions !== instructions) news.push({ kind: "instructions", chars: instructions.length, ...(opts.joined?.length ? { files: [...opts.joined] } : {}) });
    if (JSON.stringify(before?.snapshot.tools) !== JSON.stringify(tools)) {
      const names = tools.map(toolName);
      const old = new Set(before?.snapshot.tools.map(toolName) ?? []);
      news.push({ kind: "tools", names, added: names.filter((n) => !old.has(n)), removed: [...old].filter((n) => !names.includes(n)) });
    }
  }
  if (before) {
    const keys = [...new Set([...Object.keys(before.params), ...Object.keys(now.params)])].filter((k) => JSON.stringify(before.params[k]) !== JSON.stringify(now.params[k]));
    if (keys.length) news.push({ kind: "params", keys });
  }
  if (before?.trailer !== now.trailer && (before || now.trailer !== undefined)) news.push({ kind: "trailer", chars: now.trailer?.length ?? 0 });
  if (opts.harder) news.push({ kind: "harder" });
  return news;
}

/** News on one line, for a call's row: `prompt "fix the…" · 2 results (read_file 1,234 chars, bash error)`. */
export const newsText = (news: readonly News[]): string => (news.length ? news.map(oneNews).join(" · ") : "nothing new (the same request again)");

function oneNews(n: News): string {
  switch (n.kind) {
    case "prompt":
      return `prompt "${n.text}"`;
    case "results":
      return `${plural(n.results.length, "result")} (${n.results.map(resultText).join(", ")})`;
    case "compaction":
      return `compaction (${formatCount(n.chars)}-char summary)`;
    case "cut":
      return `history cut back from ${n.from} to ${plural(n.to, "message")} (undo)`;
    case "model":
      return `model ${n.from} → ${n.to}`;
    case "instructions":
      return `instructions ${n.files ? `${n.files.map((f) => `+${f}`).join(" ")} ` : ""}(${formatCount(n.chars)} chars)`;
    case "tools":
      return n.added.length === n.names.length ? plural(n.names.length, "tool") : `tools ${[...n.added.map((t) => `+${t}`), ...n.removed.map((t) => `−${t}`)].join(" ") || "redefined"}`;
    case "params":
      return `params ${n.keys.join(", ")}`;
    case "trailer":
      return n.chars ? `step note (${formatCount(n.chars)} chars)` : "no step note";
    case "harder":
      return "compacted harder (after an overflow)";
  }
}

export const resultText = (r: ResultNews): string =>
  `${r.tool} ${r.denied ? "denied" : r.isError ? "error" : ""}${r.denied || r.isError ? ", " : ""}${formatCount(r.chars)} chars`;
