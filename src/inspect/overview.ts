import { runStateOf, runStateText } from "../session/run-state.ts";
import { titleOf } from "../store/session-title.ts";
import { alignColumns } from "../text/align-columns.ts";
import { formatBytes } from "../text/format-bytes.ts";
import { plural } from "../text/plural.ts";
import { promptOf, sumCalls, sumsText, tokensJson, turnModeJson, turnStateText } from "./inspect-rows.ts";
import type { InspectedChild, InspectedLog } from "./log-turns.ts";

/** What is known of the log file besides its events: its size, and the line a damaged one stops at. */
export type LogFacts = { bytes?: number; lines: number; damaged?: { line: number; reason: string } };

/** Titles are never clipped below this, however narrow the terminal. */
const MIN_PROMPT = 12;

const modelsOf = (log: InspectedLog): string[] => {
  const models = [...new Set(log.calls.map((c) => c.model))];
  return models.length ? models : [log.state.model];
};

const stateOf = (log: InspectedLog, facts: LogFacts) => (facts.damaged ? "damaged" : runStateOf(log.state));

/** `shiro inspect <session>`: the session in a few lines, then one row per turn. No request body, no output. */
export function overviewText(log: InspectedLog, facts: LogFacts, opts: { prefix: string; columns: number; children?: ChildLogs }): string {
  const { state, turns, calls } = log;
  const models = modelsOf(log);
  const undone = turns.filter((t) => t.undoneAt !== undefined).length;
  const [tokens, cost] = sumsText(sumCalls(calls));
  const damage = facts.damaged ? `damaged at line ${facts.damaged.line} of its log (${facts.damaged.reason}): shown up to line ${facts.damaged.line - 1}` : undefined;
  const size = facts.bytes === undefined ? "" : `${formatBytes(facts.bytes)} on disk, `;
  const head = [
    ["session", state.id],
    ["title", titleOf(state.messages) || "(no prompt)"],
    [models.length > 1 ? "models" : "model", models.join(", ")],
    ["state", damage ?? runStateText(runStateOf(state))],
    ["log", `${size}${plural(facts.lines, "line")}`],
    ["folder", state.cwd],
    ...(state.mode === "plan" ? [["mode", "plan (the session was left in plan mode: -c goes on planning)"]] : []),
    ...(state.parent ? [["parent", `${state.parent.id} (its call ${state.parent.callId} started this agent)`]] : []),
    ...(state.importedFrom ? [["imported", `from session ${state.importedFrom.id}, exported ${state.importedFrom.exportedAt}`]] : []),
    ...(Object.keys(state.mcpServers).length ? [["mcp", mcpText(state)]] : []),
    ...(state.instructionFiles.length ? [["instructions", state.instructionFiles.map((f) => `${f.path} (${formatBytes(f.bytes)}${f.cut ? ", cut" : ""})`).join(", ")]] : []),
    ["total", `${plural(turns.length, "turn")}${undone ? ` (${undone} undone)` : ""} · ${plural(calls.length, "model call")} · ${tokens} · ${cost}`],
    ...hooksRow(log),
  ];
  // A turn's child agents are rows under it: what each was for, and what its own log holds.
  const rows = turns.flatMap((t) => [[String(t.turn), turnStateText(t), promptOf(t), plural(t.calls.length, "call"), ...sumsText(sumCalls(t.calls))], ...t.children.map((child) => childRow(child, opts.children?.get(child.sessionId)))]);
  const table = rows.length ? alignColumns([["turn", "state", "prompt", "calls", "tokens", "cost"], ...rows], { right: [0, 3, 4, 5], width: opts.columns - 1, clip: { column: 2, min: MIN_PROMPT } }) : ["no turns yet"];
  const hint = `each call: shiro inspect ${opts.prefix} --turns · one call's body: shiro inspect ${opts.prefix} <call> [--diff]`;
  return [...alignColumns(head, { width: opts.columns - 1 }), "", ...table, "", hint].join("\n");
}

type ChildLogs = ReadonlyMap<string, InspectedLog>;

function childRow(child: InspectedChild, log: InspectedLog | undefined): string[] {
  const what = `↳ ${child.agent}${child.description ? `: ${child.description}` : ""} (${child.sessionId})`;
  if (!log) return ["", "unreadable", what, "", "", ""];
  return ["", runStateText(runStateOf(log.state)), what, plural(log.calls.length, "call"), ...sumsText(sumCalls(log.calls))];
}

const childJson = (child: InspectedChild, log: InspectedLog | undefined) => {
  const sums = log && sumCalls(log.calls);
  return { ...child, state: log ? runStateOf(log.state) : null, calls: log?.calls.length ?? null, tokens: sums ? tokensJson(sums.usage) : null, costUsd: sums?.costUsd ?? null };
};

/** How many hooks ran and how many of them blocked something: the reasons are in `--turns`. */
function hooksRow(log: InspectedLog): string[][] {
  const runs = log.turns.flatMap((t) => t.hooks);
  if (runs.length === 0) return [];
  const blocked = runs.filter((h) => h.decision === "block").length;
  const failed = runs.filter((h) => h.failure !== undefined).length;
  return [["hooks", [plural(runs.length, "run"), ...(blocked ? [`${blocked} blocked`] : []), ...(failed ? [`${failed} failed`] : []), "(--turns shows each)"].join(" · ")]];
}
/** Each MCP server as the session last saw it: `ev 2025-11-25 13 tools (4f2a…)`, or why it failed. */
const mcpText = (state: InspectedLog["state"]): string =>
  Object.values(state.mcpServers)
    .map((e) => (e.status === "connected" ? `${e.server} ${e.protocolVersion} ${plural(e.tools ?? 0, "tool")} (${e.toolsHash?.slice(0, 8)})` : `${e.server} ${e.status}`))
    .join(", ");

/** `shiro inspect <session> --json`: the same, for scripts. */
export function overviewJson(log: InspectedLog, facts: LogFacts, children: ChildLogs = new Map()) {
  const { state, turns, calls } = log;
  const sums = sumCalls(calls);
  return {
    id: state.id,
    title: titleOf(state.messages),
    cwd: state.cwd,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    models: modelsOf(log),
    model: state.model,
    state: stateOf(log, facts),
    ...(facts.damaged ? { damaged: facts.damaged } : {}),
    ...(state.forkedFrom ? { forkedFrom: state.forkedFrom } : {}),
    ...(state.parent ? { parent: state.parent } : {}),
    ...(state.importedFrom ? { importedFrom: state.importedFrom } : {}),
    bytes: facts.bytes ?? null,
    lines: facts.lines,
    mcpServers: Object.values(state.mcpServers).map(({ type: _, ...server }) => server),
    instructionFiles: state.instructionFiles.map(({ path, bytes, cut }) => ({ path, bytes, ...(cut ? { cut } : {}) })),
    calls: calls.length,
    tokens: tokensJson(sums.usage),
    costUsd: sums.costUsd ?? null,
    turns: turns.map((t) => {
      const turnSums = sumCalls(t.calls);
      return {
        turn: t.turn,
        state: t.state,
        undone: t.undoneAt !== undefined,
        ...(t.imported ? { imported: true } : {}),
        mode: turnModeJson(t),
        at: t.at,
        prompt: promptOf(t),
        calls: t.calls.map((c) => c.step),
        tokens: tokensJson(turnSums.usage),
        costUsd: turnSums.costUsd ?? null,
        children: t.children.map((child) => childJson(child, children.get(child.sessionId))),
      };
    }),
  };
}
