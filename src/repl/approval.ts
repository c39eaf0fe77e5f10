import type { AskAnswer } from "../guard/authorize.ts";
import type { Key } from "./key-decoder.ts";
import { draftOf, edit, editKey, type Draft } from "./line-editor.ts";

export const APPROVAL_PROMPT = "allow? [y]es · [n]o (optionally: n <reason for the model>) · [a]lways for ";
export const REASON_HINT = "a reason for the model, or Enter to refuse without one (Backspace: back to the question)";

/**
 * An approval question being answered: one key (`y`, `a`, Esc) decides it, `n` opens a reason to
 * type (Enter sends it, Backspace on an empty one goes back). `wrong` is the last key that was not an answer.
 */
export type Approval = { always: readonly string[]; reason?: Draft; wrong?: string };

export type ApprovalStep =
  | { next: Approval }
  | { answer: AskAnswer }
  /** Esc or Ctrl-C: the call is refused and the turn stopped. */
  | { stop: true }
  /** Ctrl-D: quit. */
  | { eof: true };

/** What a key does to the question. Pure. */
export function approvalKey(q: Approval, key: Key): ApprovalStep {
  if (key.name === "escape" || key.name === "ctrl-c") return { stop: true };
  if (key.name === "ctrl-d" && !q.reason?.text) return { eof: true };
  if (q.reason) return reasonKey(q, q.reason, key);
  // Keys typed fast arrive together: the first decides, and after `n` the rest is the reason's start.
  const typed = key.name === "text" || key.name === "paste" ? key.text.trimStart() : "";
  const first = typed[0]?.toLowerCase();
  if (first === "y") return { answer: { answer: "yes" } };
  if (first === "a") return { answer: { answer: "always" } };
  if (first === "n") return { next: { always: q.always, reason: draftOf(oneLine(/^(?:no\b|n)\s*(.*)$/is.exec(typed)![1]!)) } };
  return { next: { always: q.always, wrong: key.name === "text" ? key.text : "" } };
}

function reasonKey(q: Approval, reason: Draft, key: Key): ApprovalStep {
  const next = (d: Draft): ApprovalStep => ({ next: { always: q.always, reason: d } });
  if (key.name === "enter") {
    const text = reason.text.trim();
    return { answer: text ? { answer: "no", reason: text } : { answer: "no" } };
  }
  if ((key.name === "text" && !key.meta) || key.name === "paste") {
    // `n` then a space then the reason, as it would be written: the space is not part of it.
    const typed = oneLine(key.text);
    return next(edit.insert(reason, reason.text === "" ? typed.trimStart() : typed));
  }
  if (key.name === "backspace" && reason.text === "") return { next: { always: q.always } };
  if (key.name === "ctrl-d") return next(edit.delete(reason));
  const edited = editKey(reason, key);
  return edited ? next(edited) : { next: q };
}

/** The question's line: as first asked, after a key that was not an answer, or with `n ` and the reason so far. */
export function approvalQuestion(q: Approval): string {
  const always = q.always.join(", ");
  if (q.wrong !== undefined) return `${q.wrong.trim() ? `"${q.wrong.trim()}" is not an answer; type` : "type"} y, n (n <reason>) or a (always for ${always}): `;
  return `${APPROVAL_PROMPT}${always}: `;
}

/** How the answered question stays in the transcript: the question, then what was pressed. */
export const answeredLine = (question: string, answer: AskAnswer | "stopped"): string =>
  `${question}${answer === "stopped" ? "Esc" : answer.answer === "yes" ? "y" : answer.answer === "always" ? "a" : `n${answer.reason ? ` ${answer.reason}` : ""}`}`;

const oneLine = (text: string) => text.replace(/[\r\n\t]+/g, " ").replace(/[\x00-\x1f\x7f]/g, "");
