import type pc from "picocolors";
import type { AskAnswer } from "../guard/authorize.ts";
import { answeredLine, approvalKey, approvalQuestion, REASON_HINT, type Approval } from "./approval.ts";
import type { Key } from "./key-decoder.ts";
import { pickKey, type PickList } from "./pick-list.ts";

/** An approval's outcome: the answer, or the person stopped the turn (Esc, Ctrl-C) or quit (Ctrl-D). */
export type Asked = AskAnswer | "stopped" | "eof";

type Question =
  | { kind: "approval"; state: Approval; done: (asked: Asked) => void }
  | { kind: "confirm"; text: string; done: (yes: boolean | "eof") => void }
  | { kind: "offer"; text: string; done: (yes: boolean | "eof") => void }
  | { kind: "pick"; list: PickList; done: (chosen: number | undefined | "eof") => void };

type Options = {
  c: ReturnType<typeof pc.createColors>;
  /** The area changed: draw it again. */
  render: () => void;
  /** A line for the transcript, above the area. */
  output: (text: string) => void;
};

/**
 * The questions put to the person, one at a time in the live area (others asked meanwhile — a
 * project's hooks and its MCP servers, both at start-up — wait their turn): an approval, a yes/no, a pick.
 */
export function createOpenQuestions({ c, render, output }: Options) {
  let question: Question | undefined;
  const waiting: Question[] = [];
  const ask = (q: Question) => {
    if (question) waiting.push(q);
    else question = q;
    render();
  };
  /** The question leaves the area and stays in the transcript with its answer. */
  const settle = (line: string) => {
    question = waiting.shift();
    output(`${line}\n`);
    if (question) render();
  };
  const next = () => {
    question = waiting.shift();
    render();
  };
  const stoppedLine = (q: Extract<Question, { kind: "approval" }>) => answeredLine(c.yellow(approvalQuestion({ always: q.state.always })), "stopped");

  /** Whether the question took the key: a key that declines an offer by typing goes on to the prompt. */
  function key(q: Question, k: Key): boolean {
    if (q.kind !== "offer") return (answer(q, k), true);
    if (k.name === "ctrl-d") return (q.done("eof"), true);
    const yes = k.name === "text" && k.text.trim().toLowerCase() === "y";
    settle(`${c.yellow(q.text)}${yes ? "y" : "n"}`);
    q.done(yes);
    // Typing (or pasting) anything else starts the reply that refines it; Enter, n and Esc only decline.
    const typed = (k.name === "text" || k.name === "paste") && k.text.trim().toLowerCase() !== "n";
    return yes || !typed;
  }

  function answer(q: Exclude<Question, { kind: "offer" }>, k: Key): void {
    if (q.kind === "pick") {
      const step = pickKey(q.list, k);
      if ("next" in step) return void ((q.list = step.next), render());
      // The picker leaves no line behind: what the choice did is printed next, and a cancel did nothing.
      next();
      return q.done("chosen" in step ? step.chosen : "eof" in step ? "eof" : undefined);
    }
    if (q.kind === "confirm") {
      if (k.name === "ctrl-d") return q.done("eof");
      const yes = k.name === "text" && k.text.trim().toLowerCase().startsWith("y");
      settle(`${c.yellow(q.text)}${yes ? "y" : "n"}`);
      return q.done(yes);
    }
    const step = approvalKey(q.state, k);
    if ("next" in step) return void ((q.state = step.next), render());
    if ("eof" in step) return q.done("eof");
    const asked = "answer" in step ? step.answer : "stopped";
    settle(answeredLine(c.yellow(approvalQuestion({ always: q.state.always })), asked));
    q.done(asked);
  }

  return {
    /** The question shown now, as the area draws it; undefined when none is open. */
    view() {
      const q = question;
      if (!q) return undefined;
      if (q.kind === "confirm" || q.kind === "offer") return { text: c.yellow(q.text) };
      if (q.kind === "pick") return { text: c.yellow(q.list.title), list: q.list, hint: q.list.hint };
      return { text: c.yellow(approvalQuestion(q.state)), ...(q.state.reason ? { answer: q.state.reason, hint: REASON_HINT } : {}) };
    },
    /** Takes the key when a question is open. */
    key: (k: Key): boolean => (question ? key(question, k) : false),
    approve: (always: readonly string[]) => new Promise<Asked>((done) => ask({ kind: "approval", state: { always }, done })),
    confirm: (text: string) => new Promise<boolean | "eof">((done) => ask({ kind: "confirm", text: `${text} [y/N] `, done })),
    /** A yes/no whose "no" may be typed as what to do instead: y takes it; any other text declines it and goes to the prompt. */
    offer: (text: string) => new Promise<boolean | "eof">((done) => ask({ kind: "offer", text: `${text} `, done })),
    /** Shows `list` in place of the prompt until a row is chosen (its index) or the person cancels (undefined). */
    pick: (list: Omit<PickList, "pick">) => new Promise<number | undefined | "eof">((done) => ask({ kind: "pick", list: { ...list, pick: 0 }, done })),
    /** Ends the open question as stopped (the turn was aborted, or the REPL is closing). */
    drop(): void {
      const q = question;
      if (!q) return;
      if (q.kind === "pick") return void (next(), q.done(undefined));
      if (q.kind === "confirm" || q.kind === "offer") return void (settle(`${c.yellow(q.text)}n`), q.done(false));
      settle(stoppedLine(q));
      q.done("stopped");
    },
  };
}
