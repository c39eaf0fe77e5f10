import { runStateText } from "../session/run-state.ts";
import { costText } from "../pricing/usage-text.ts";
import { alignColumns } from "../text/align-columns.ts";
import { plural } from "../text/plural.ts";
import { newsText } from "./call-news.ts";
import { hookJson, hookLine, outcomeJson, outcomeText, promptOf, sumCalls, sumsText, tokensJson, tokensText, turnModeJson } from "./inspect-rows.ts";
import type { InspectedCall, InspectedLog, InspectedTurn } from "./log-turns.ts";

function turnHead(t: InspectedTurn): string {
  const state = t.undoneAt !== undefined ? `undone (it had ${runStateText(t.state)})` : t.imported ? `imported (${runStateText(t.state)})` : runStateText(t.state);
  const calls = t.calls.length ? [plural(t.calls.length, "call"), ...sumsText(sumCalls(t.calls))] : [t.imported ? "its calls were another session's" : "no model call"];
  return [`turn ${t.turn}`, state, ...(t.plan ? ["plan mode"] : []), `"${promptOf(t)}"`, ...calls].join(" · ");
}

const callRow = (c: InspectedCall): string[] => [
  `call ${c.step}`,
  c.model,
  outcomeText(c),
  c.response?.usage ? tokensText(c.response.usage) : "",
  c.response?.usage ? costText(c.costUsd) : "",
  `new: ${newsText(c.news)}`,
];

/** `shiro inspect <session> --turns`: every turn, and under it each of its calls on one line — what was new in it, how it ended. */
export function turnsText(log: InspectedLog, opts: { columns: number }): string {
  const { turns, calls, state } = log;
  // One alignment for every call, so columns line up across turns; a row's wrapped lines follow its first.
  const lines = calls.length ? alignColumns(calls.map(callRow), { right: [3, 4], width: opts.columns - 3 }) : [];
  const rowLines: string[][] = [];
  for (const line of lines) (line.startsWith("call ") ? rowLines.push([line]) : rowLines.at(-1)!.push(line));
  let next = 0;
  const blocks = turns.map((t) => [turnHead(t), ...t.calls.flatMap(() => rowLines[next++]!.map((l) => `  ${l}`)), ...t.hooks.map((h) => `  ${hookLine(h)}`)].join("\n"));
  const head = `session ${state.id} · ${plural(turns.length, "turn")} · ${plural(calls.length, "model call")}`;
  return [head, ...blocks].join("\n\n");
}

/** `--turns --json`: the same, for scripts. */
export function turnsJson(log: InspectedLog) {
  return {
    id: log.state.id,
    turns: log.turns.map((t) => {
      const sums = sumCalls(t.calls);
      return {
        turn: t.turn,
        state: t.state,
        undone: t.undoneAt !== undefined,
        ...(t.undoneAt !== undefined ? { undoneAt: t.undoneAt } : {}),
        ...(t.imported ? { imported: true } : {}),
        mode: turnModeJson(t),
        at: t.at,
        prompt: promptOf(t),
        tokens: tokensJson(sums.usage),
        costUsd: sums.costUsd ?? null,
        calls: t.calls.map((c) => ({
          call: c.step,
          model: c.model,
          messages: c.messages,
          reused: c.reused,
          new: c.news,
          ...outcomeJson(c),
          tokens: c.response?.usage ? tokensJson(c.response.usage) : null,
          costUsd: c.costUsd ?? null,
        })),
        hooks: t.hooks.map(hookJson),
      };
    }),
  };
}
