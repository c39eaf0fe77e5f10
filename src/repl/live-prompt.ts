import type pc from "picocolors";
import type { AgentEvent } from "../loop/events.ts";
import type { AskAnswer } from "../guard/authorize.ts";
import { answeredLine, approvalKey, approvalQuestion, REASON_HINT, type Approval } from "./approval.ts";
import type { Key } from "./key-decoder.ts";
import type { createLiveScreen } from "./live-screen.ts";
import type { createPromptInput } from "./prompt-input.ts";
import { movePick, pickedCommand, type MenuPick } from "./menu-pick.ts";
import { pickKey, type PickList } from "./pick-list.ts";
import { composeArea, CONTINUATION } from "./repl-view.ts";
import { nextStatus, startStatus, statusText, STATUS_TICK_MS, type Activity, type Status } from "./status-line.ts";

/** What the prompt hands to the REPL. */
export type PromptEvents = {
  submit(text: string, shown: string): void;
  /** Ctrl-C (outside a question). */
  interrupt(): void;
  escape(): void;
  /** Ctrl-D on an empty line, or at a question. */
  eof(): void;
};

/** An approval's outcome: the answer, or the person stopped the turn (Esc, Ctrl-C) or quit (Ctrl-D). */
export type Asked = AskAnswer | "stopped" | "eof";

type Question =
  | { kind: "approval"; state: Approval; done: (asked: Asked) => void }
  | { kind: "confirm"; text: string; done: (yes: boolean | "eof") => void }
  | { kind: "pick"; list: PickList; done: (chosen: number | undefined | "eof") => void };

type Options = {
  screen: ReturnType<typeof createLiveScreen>;
  input: ReturnType<typeof createPromptInput>;
  menu: (typed: string) => readonly (readonly [string, string])[];
  c: ReturnType<typeof pc.createColors>;
  columns: () => number;
  events: PromptEvents;
};

/**
 * The bottom of the screen while the REPL runs: the prompt (always there, even mid-turn, where
 * Enter queues), the queue, a question when one is asked, and the status line while work goes on.
 * Keys come here first; everything it shows is redrawn from its state on each change.
 */
export function createLivePrompt({ screen, input, menu, c, columns, events }: Options) {
  const PROMPT = c.bold(c.magenta("› "));
  let queued: readonly string[] = [];
  let question: Question | undefined;
  // Questions asked while one is open (a project's hooks and its MCP servers, both at start-up) wait their turn.
  const waiting: Question[] = [];
  const ask = (q: Question) => {
    if (question) waiting.push(q);
    else question = q;
    render();
  };
  let status: Status | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  /** Quick slash commands finish before their status line would show: it (and the prompt) wait this long. */
  let statusAfter = 0;
  let closed = false;
  /** The slash-menu row ↑/↓ picked; any other key drops it. */
  let pick: MenuPick;
  const shownMenu = () => (input.draft.text.startsWith("/") ? menu(input.draft.text) : []);

  function render(): void {
    if (closed) return;
    const width = columns();
    const now = Date.now();
    const showStatus = status && !question && now - status.startedAt >= statusAfter;
    // Until a slow command's status line is due, nothing is drawn: a prompt alone would read as idle.
    if (status && !question && !showStatus) return screen.draw({ rows: [], cursor: { row: 0, before: "" } });
    const typed = input.draft.text;
    screen.draw(
      composeArea({
        prompt: PROMPT,
        draft: input.draft,
        choices: input.choices,
        menu: typed.startsWith("/") ? menu(typed) : [],
        ...(pick === undefined ? {} : { menuPick: pick }),
        queued,
        // A question is answered by the person, not waited on: no spinner beside it.
        ...(status && showStatus ? { status: c.dim(statusText(status, now, { columns: width, queued: queued.length })) } : {}),
        ...(question ? { question: questionView(question) } : {}),
        columns: width,
        c,
      }),
    );
  }
  input.onChange(render);

  const questionView = (q: Question) =>
    q.kind === "confirm"
      ? { text: c.yellow(q.text) }
      : q.kind === "pick"
        ? { text: c.yellow(q.list.title), list: q.list, hint: q.list.hint }
        : { text: c.yellow(approvalQuestion(q.state)), ...(q.state.reason ? { answer: q.state.reason, hint: REASON_HINT } : {}) };

  /** The question leaves the area and stays in the transcript with its answer. */
  function settle(line: string): void {
    question = waiting.shift();
    screen.output(`${line}\n`);
    if (question) render();
  }

  function questionKey(q: Question, key: Key): void {
    if (q.kind === "pick") {
      const step = pickKey(q.list, key);
      if ("next" in step) {
        q.list = step.next;
        return render();
      }
      // The picker leaves no line behind: what the choice did is printed next, and a cancel did nothing.
      question = waiting.shift();
      render();
      return q.done("chosen" in step ? step.chosen : "eof" in step ? "eof" : undefined);
    }
    if (q.kind === "confirm") {
      if (key.name === "ctrl-d") return q.done("eof");
      const yes = key.name === "text" && key.text.trim().toLowerCase().startsWith("y");
      settle(`${c.yellow(q.text)}${yes ? "y" : "n"}`);
      return q.done(yes);
    }
    const step = approvalKey(q.state, key);
    if ("next" in step) {
      q.state = step.next;
      return render();
    }
    if ("eof" in step) return q.done("eof");
    const asked = "answer" in step ? step.answer : "stopped";
    settle(answeredLine(c.yellow(approvalQuestion({ always: q.state.always })), asked));
    q.done(asked);
  }

  /** ↑/↓ move through the slash menu while it shows (not while walking history); Tab takes the pick, Enter runs it. */
  function menuKey(key: Key): boolean {
    const rows = shownMenu();
    if (rows.length === 0 || input.recalled) return false;
    if (key.name === "up" || key.name === "down") {
      pick = movePick(pick, rows.length, key.name);
      render();
      return true;
    }
    const picked = pick === undefined ? undefined : rows[pick];
    pick = undefined;
    if (!picked || (key.name !== "tab" && !(key.name === "enter" && !key.meta))) return false;
    const command = pickedCommand(picked[0]);
    if (key.name === "tab") {
      input.replace(`${command} `);
      render();
    } else {
      input.replace("");
      events.submit(command, command);
      render();
    }
    return true;
  }

  return {
    key(key: Key): void {
      if (question) return questionKey(question, key);
      if (menuKey(key)) return;
      const action = input.key(key);
      if (action.type === "submit") {
        if (action.text.trim() !== "") events.submit(action.text, action.shown);
      } else if (action.type === "interrupt") return events.interrupt();
      else if (action.type === "escape") return events.escape();
      else if (action.type === "eof") return events.eof();
      render();
    },
    render,
    /** Transcript text, above the area. */
    print(text: string): void {
      screen.output(text);
    },
    /** A submitted prompt as it stays in the transcript: `› ` and its lines, pastes still collapsed. */
    echo(shown: string): void {
      screen.output(`${PROMPT}${shown.replace(/\n/g, `\n${CONTINUATION}`)}\n`);
    },
    setQueue(next: readonly string[]): void {
      queued = next;
      render();
    },
    /** Work began: the status line shows (after `delayMs`) until `idle()`, ticking so its clock and spinner move. */
    busy(activity?: Activity, delayMs = 0): void {
      status = startStatus(Date.now(), activity);
      statusAfter = delayMs;
      clearInterval(ticker);
      ticker = setInterval(render, STATUS_TICK_MS);
      render();
    },
    event(event: AgentEvent): void {
      if (status) status = nextStatus(status, event, Date.now());
    },
    idle(): void {
      clearInterval(ticker);
      status = undefined;
      render();
    },
    approve(always: readonly string[]): Promise<Asked> {
      return new Promise((done) => ask({ kind: "approval", state: { always }, done }));
    },
    confirm(text: string): Promise<boolean | "eof"> {
      return new Promise((done) => ask({ kind: "confirm", text: `${text} [y/N] `, done }));
    },
    /** Shows `list` in place of the prompt until a row is chosen (its index) or the person cancels (undefined). */
    pick(list: Omit<PickList, "pick">): Promise<number | undefined | "eof"> {
      return new Promise((done) => ask({ kind: "pick", list: { ...list, pick: 0 }, done }));
    },
    /** Ends a waiting question as stopped (the turn was aborted, or the REPL is closing). */
    dropQuestion(): void {
      const q = question;
      if (!q) return;
      if (q.kind === "pick") {
        question = waiting.shift();
        render();
        return q.done(undefined);
      }
      if (q.kind === "confirm") {
        settle(`${c.yellow(q.text)}n`);
        return q.done(false);
      }
      settle(answeredLine(c.yellow(approvalQuestion({ always: q.state.always })), "stopped"));
      q.done("stopped");
    },
    close(): void {
      clearInterval(ticker);
      screen.close();
      closed = true;
    },
  };
}
