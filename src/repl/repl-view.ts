import type pc from "picocolors";
import { clipToWidth } from "../ui/cell-layout.ts";
import type { Draft } from "./line-editor.ts";
import type { Area } from "./live-screen.ts";
import { visibleWindow } from "./menu-pick.ts";

type Colors = ReturnType<typeof pc.createColors>;

/** Everything the live area shows; the REPL fills it in and `composeArea` lays it out. */
export type View = {
  prompt: string;
  draft: Draft;
  /** Completions listed after a Tab. */
  choices: readonly string[];
  /** Slash commands matching what is typed: usage and summary. */
  menu: readonly (readonly [string, string])[];
  /** The menu row ↑/↓ have picked, drawn highlighted (and kept in view). */
  menuPick?: number;
  /** Prompts waiting for the turn to end, as they were shown. */
  queued: readonly string[];
  status?: string;
  /** A question in place of the prompt; `answer` is what is typed after it (a refusal's reason). */
  question?: { text: string; answer?: Draft; hint?: string; list?: { rows: readonly string[]; pick: number } };
  columns: number;
  c: Colors;
};

/** Continuation lines of a multi-line prompt are indented under its first, past the `› `. */
export const CONTINUATION = "  ";
const LISTED = 10;

/**
 * The live area, top to bottom: queued prompts, the prompt (or a question), completions or the
 * slash menu, the status line. Rows other than the prompt are clipped to the width, never wrapped.
 */
export function composeArea(v: View): Area {
  const { c } = v;
  const fit = (text: string) => clipToWidth(text, v.columns - 1);
  const rows: string[] = v.queued.map((q, i) => fit(c.dim(`· queued (${i + 1}): ${q.replace(/\n/g, " ⏎ ")}`)));
  let cursor: Area["cursor"];
  const below: string[] = [];
  if (v.question) {
    const answer = v.question.answer;
    const text = answer ? `${v.question.text}n ${answer.text}` : v.question.text;
    cursor = { row: rows.length, before: answer ? `${v.question.text}n ${answer.text.slice(0, answer.cursor)}` : v.question.text };
    rows.push(text);
    if (v.question.list) below.push(...pickedRows(v.question.list.rows, v.question.list.pick, c, fit));
    if (v.question.hint) below.push(fit(c.dim(`  ${v.question.hint}`)));
  } else {
    const lines = v.draft.text.split("\n");
    const before = v.draft.text.slice(0, v.draft.cursor).split("\n");
    const lead = (i: number) => (i === 0 ? v.prompt : CONTINUATION);
    cursor = { row: rows.length + before.length - 1, before: lead(before.length - 1) + before.at(-1)! };
    rows.push(...lines.map((line, i) => lead(i) + line));
    below.push(...listed(v.choices.map((choice) => fit(`  ${choice}`)), c, fit));
    if (v.choices.length === 0) below.push(...pickedMenu(v.menu, v.menuPick, c, fit));
  }
  if (v.status) below.push(fit(v.status));
  return { rows: [...rows, ...below], cursor };
}

function listed(rows: string[], c: Colors, fit: (text: string) => string): string[] {
  return rows.length > LISTED ? [...rows.slice(0, LISTED - 1), fit(c.dim(`  … ${rows.length - LISTED + 1} more`))] : rows;
}

/** The slash menu, its picked row marked `›` and in reverse video, the list scrolled to keep it in view. */
function pickedMenu(menu: View["menu"], pick: number | undefined, c: Colors, fit: (text: string) => string): string[] {
  const width = Math.max(0, ...menu.map(([usage]) => usage.length));
  const { start, end } = visibleWindow(menu.length, LISTED, pick);
  const rows = menu.slice(start, end).map(([usage, summary], i) =>
    start + i === pick ? fit(c.inverse(`› ${usage.padEnd(width)}  ${summary}`)) : fit(`  ${c.bold(usage.padEnd(width))}  ${c.dim(summary)}`),
  );
  const hidden = menu.length - (end - start);
  return hidden > 0 ? [...rows, fit(c.dim(`  … ${hidden} more`))] : rows;
}

/** A list to pick from (the turns /rewind offers), marked and scrolled as the slash menu is. */
function pickedRows(list: readonly string[], pick: number, c: Colors, fit: (text: string) => string): string[] {
  const { start, end } = visibleWindow(list.length, LISTED, pick);
  const rows = list.slice(start, end).map((row, i) => (start + i === pick ? fit(c.inverse(`› ${row}`)) : fit(`  ${row}`)));
  const hidden = list.length - (end - start);
  return hidden > 0 ? [...rows, fit(c.dim(`  … ${hidden} more`))] : rows;
}
