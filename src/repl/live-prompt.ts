import type pc from "picocolors";
import type { AgentEvent } from "../loop/events.ts";
import type { Key } from "./key-decoder.ts";
import type { createLiveScreen } from "./live-screen.ts";
import { createOpenQuestions } from "./open-questions.ts";
import type { createPromptInput } from "./prompt-input.ts";
import { composeArea, CONTINUATION } from "./repl-view.ts";
import { createSlashMenuKeys } from "./slash-menu-keys.ts";
import { createStatusClock } from "./status-clock.ts";
import type { Badge } from "./mode-badge.ts";
import { jobsText, statusText, type Activity } from "./status-line.ts";

export type { Asked } from "./open-questions.ts";

/** What the prompt hands to the REPL. */
export type PromptEvents = {
  submit(text: string, shown: string): void;
  /** Ctrl-C (outside a question). */
  interrupt(): void;
  escape(): void;
  /** Ctrl-D on an empty line, or at a question. */
  eof(): void;
};

type Options = {
  screen: ReturnType<typeof createLiveScreen>;
  input: ReturnType<typeof createPromptInput>;
  menu: (typed: string) => readonly (readonly [string, string])[];
  c: ReturnType<typeof pc.createColors>;
  columns: () => number;
  events: PromptEvents;
  /** The agent's mode, when it is not the default: in the status line, and under the prompt while idle. */
  badge: () => Badge | undefined;
  /** How many background jobs run now: on the status line, and on a line of its own while idle. */
  jobs: () => number;
};

/**
 * The bottom of the screen while the REPL runs: the prompt (always there, even mid-turn, where
 * Enter queues), the queue, a question when one is asked (open-questions), and the status line
 * while work goes on (status-clock). Keys come here first; everything it shows is redrawn from
 * those parts' state on each change.
 */
export function createLivePrompt({ screen, input, menu, c, columns, events, jobs, badge }: Options) {
  const PROMPT = c.bold(c.magenta("› "));
  let queued: readonly string[] = [];
  let closed = false;
  const questions = createOpenQuestions({ c, render: () => render(), output: (text) => screen.output(text) });
  const slash = createSlashMenuKeys({ input, menu, render: () => render(), submit: (command) => events.submit(command, command) });
  const clock = createStatusClock(() => render());

  function render(): void {
    if (closed) return;
    const width = columns();
    const now = Date.now();
    const question = questions.view();
    const status = question ? undefined : clock.now(now);
    // Until a slow command's status line is due, nothing is drawn: a prompt alone would read as idle.
    if (status && !status.due) return screen.draw({ rows: [], cursor: { row: 0, before: "" } });
    const typed = input.draft.text;
    const pick = slash.picked();
    const running = jobs();
    const mode = badge();
    // While work runs, one status line; while the prompt waits, what goes on regardless: the mode, the background jobs.
    const idle = [...(mode ? [c.cyan(mode.idle)] : []), ...(running ? [c.dim(jobsText(running, width))] : [])];
    const line = status
      ? c.dim(statusText(status.status, now, { columns: width, queued: queued.length, jobs: running, ...(mode ? { badge: mode.busy } : {}) }))
      : !question && idle.length
        ? idle.join(c.dim(" · "))
        : undefined;
    screen.draw(
      composeArea({
        prompt: PROMPT,
        draft: input.draft,
        choices: input.choices,
        menu: typed.startsWith("/") ? menu(typed) : [],
        ...(pick === undefined ? {} : { menuPick: pick }),
        queued,
        // A question is answered by the person, not waited on: no spinner beside it.
        ...(line ? { status: line } : {}),
        ...(question ? { question } : {}),
        columns: width,
        c,
      }),
    );
  }
  input.onChange(render);

  return {
    key(key: Key): void {
      if (questions.key(key) || slash.key(key)) return;
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
    print: (text: string) => screen.output(text),
    /** A submitted prompt as it stays in the transcript: `› ` and its lines, pastes still collapsed. */
    echo: (shown: string) => screen.output(`${PROMPT}${shown.replace(/\n/g, `\n${CONTINUATION}`)}\n`),
    setQueue(next: readonly string[]): void {
      queued = next;
      render();
    },
    /** Work began: the status line shows (after `delayMs`) until `idle()`, ticking so its clock and spinner move. */
    busy(activity?: Activity, delayMs = 0): void {
      clock.busy(activity, delayMs);
      render();
    },
    event: (event: AgentEvent) => clock.event(event),
    idle(): void {
      clock.idle();
      render();
    },
    approve: questions.approve,
    confirm: questions.confirm,
    offer: questions.offer,
    pick: questions.pick,
    /** Ends a waiting question as stopped (the turn was aborted, or the REPL is closing). */
    dropQuestion: questions.drop,
    close(): void {
      clock.idle();
      screen.close();
      closed = true;
    },
  };
}
