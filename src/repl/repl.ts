import * as readline from "node:readline";
import pc from "picocolors";
import type { AgentEvent } from "../agent/events.ts";
import type { Flags } from "../cli/args.ts";
import { isYes } from "../cli/ask-yes-no.ts";
import type { Config } from "../cli/config.ts";
import { startSession } from "../cli/start-session.ts";
import { attachMentions } from "../context/attach-mentions.ts";
import { onStopSignal, stopExitCode, stoppedWords, type StopSignal } from "../cli/stop-signals.ts";
import type { AskRequest } from "../guard/authorize.ts";
import { openHistory, HISTORY_CAP } from "../store/history-store.ts";
import { ID_PREFIX_CHARS } from "../store/list-sessions-view.ts";
import { createTranscript } from "../ui/transcript.ts";
import { renderDiff } from "../ui/diff-view.ts";
import { VERSION } from "../version.ts";
import { APPROVAL_PROMPT, parseApproval, type ApprovalAnswer } from "./approval.ts";
import { COMMANDS, contextLine, showBeforePrompt, type ReplContext } from "./commands.ts";
import { showTodoPanel } from "./memory-commands.ts";
import { createCompleter } from "./completer.ts";
import { gatedOutput } from "./gated-output.ts";
import { resumedLine } from "./session-commands.ts";
import { parseSlash, unknownCommandLine } from "./slash-commands.ts";
import { surviveHangUp } from "./survive-hang-up.ts";

type Turn = {
  controller: AbortController;
  /** Set while a tool runs: Ctrl-C stops that tool (a `bash` command) instead of the turn. */
  interrupt?: AbortController;
  /** The approval question showed the running call's diff: its result need not show it again. */
  diffShown?: boolean;
  /** Resolved when the turn's events have all been handled (and its messages recorded). */
  finished: PromiseWithResolvers<void>;
  /** The turn's transcript, so notices land on a line of their own between streamed text. */
  render: (event: AgentEvent) => void;
};

/** How long quitting waits for an aborted turn to wind down before saving anyway. */
const QUIT_GRACE_MS = 2000;
/** The approval answer an aborted turn gives to a question still waiting. */
const ABORTED_ANSWER = "n they stopped the turn";

/** The interactive session: readline, a queue for lines typed during a turn, Esc/Ctrl-C/Ctrl-D. */
export async function runRepl(flags: Flags, config: Config & { apiKey: string }): Promise<number> {
  const cwd = process.cwd();
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const c = pc.createColors(color);
  const PROMPT = c.bold(c.magenta("› "));
  const print = (text: string) => process.stdout.write(text.endsWith("\n") ? text : text + "\n");
  const history = await openHistory(config.home, cwd);

  let turn: Turn | undefined;
  // The model call a slash command is waiting on (/compact, /memory), for Esc to cancel.
  let commandAbort: AbortController | undefined;
  const queue: string[] = [];
  let pendingAnswer: ((line: string) => void) | undefined;
  let lastIdleInterrupt = 0;
  let closed = false;
  /** A line (prompt or slash command) is being handled. */
  let busy = false;
  /** A CI runner's SIGTERM or a closed terminal ends the session as Ctrl-D does, exiting 143 or 129. */
  let stoppedBy: StopSignal | undefined;
  surviveHangUp(() => (stoppedBy ??= "SIGHUP"));

  // Both questions are asked through readline's own prompt, so editing the answer redraws them intact.
  const askLine = (question: string) =>
    new Promise<string>((resolve) => {
      // Set first: it opens readline's output during a turn, so the question is drawn.
      pendingAnswer = (line) => {
        pendingAnswer = undefined;
        rl.setPrompt(PROMPT);
        resolve(line);
      };
      rl.setPrompt(question);
      rl.prompt(true);
    });

  const askPerson = async ({ summary, preview, always }: AskRequest): Promise<ApprovalAnswer> => {
    print(`${c.yellow("?")} ${summary}`);
    if (preview) print(renderDiff(preview, color));
    if (preview && turn) turn.diffShown = true;
    let question = `${APPROVAL_PROMPT}${always.join(", ")}: `;
    for (;;) {
      const line = await askLine(c.yellow(question));
      const answer = parseApproval(line);
      if (answer) return answer;
      // Say what went wrong rather than repeat the same question as if nothing was typed.
      question = `${line.trim() ? `"${line.trim()}" is not an answer; type` : "type"} y, n (n <reason>) or a (always for ${always.join(", ")}): `;
    }
  };

  const warn = (line: string) => print(c.yellow(`! ${line}`));
  const runtime = await startSession({
    flags,
    config,
    cwd,
    warn,
    ask: askPerson,
    interruptSignal: () => {
      const interrupt = new AbortController();
      if (turn) turn.interrupt = interrupt;
      return interrupt.signal;
    },
  });
  const confirm = async (question: string) => isYes(await askLine(c.yellow(`${question} [y/N] `)));
  const ctx: ReplContext = { runtime, config, print, color, confirm, columns: () => process.stdout.columns || 80, signal: new AbortController().signal };

  const rl = readline.createInterface({
    input: process.stdin,
    output: gatedOutput(process.stdout, () => !busy || pendingAnswer !== undefined),
    terminal: true,
    prompt: PROMPT,
    history: [...history.entries].reverse(),
    historySize: HISTORY_CAP,
    completer: createCompleter(cwd, COMMANDS),
    // Esc alone aborts a turn; readline's default 500 ms wait for an escape sequence feels sluggish.
    escapeCodeTimeout: 50,
  });
  onStopSignal(["SIGTERM", "SIGHUP"], (signal) => {
    stoppedBy ??= signal;
    rl.close();
  });
  if (history.warning) print(c.yellow(`! ${history.warning}`));
  print(`${c.bold("shiro")} ${VERSION} · ${runtime.session.model} · ${cwd} · ${contextLine(runtime, c)}`);
  print(c.dim("/help for commands · Esc aborts a turn · Ctrl-D quits"));
  // -c/-r: say which conversation goes on, so a person knows the model remembers it.
  if (runtime.session.messages.length) print(c.dim(resumedLine(runtime.session)));
  // A continued session shows its task list before the first prompt.
  showTodoPanel(ctx);

  let exit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (exit = resolve));

  /** Runs a line, then each line queued meanwhile; while busy, typed lines wait in the queue. */
  async function submit(line: string): Promise<void> {
    busy = true;
    try {
      if ((await runLine(line)) === "exit") return rl.close();
    } catch (err) {
      print(c.red(`error: ${(err as Error)?.message ?? String(err)}`));
    }
    if (closed) return;
    const next = queue.shift();
    if (next !== undefined) {
      print(c.dim(`› ${next}`));
      return submit(next);
    }
    busy = false;
    // Keeps whatever was typed (unseen) meanwhile, with the cursor after it.
    rl.prompt(true);
  }

  async function runLine(line: string): Promise<void | "exit"> {
    const unsaved = await history.add(line);
    if (unsaved) warn(unsaved);
    if (line.trimStart().startsWith("/")) {
      const parsed = parseSlash(line, COMMANDS);
      if (parsed.kind === "command") {
        commandAbort = new AbortController();
        try {
          return await parsed.command.run({ ...ctx, signal: commandAbort.signal }, parsed.arg);
        } finally {
          commandAbort = undefined;
        }
      }
      print(c.yellow(unknownCommandLine(parsed)));
      return;
    }
    const { text, attached, refused, missing } = await attachMentions(line, cwd);
    if (attached.length) print(c.dim(`· attached ${attached.join(", ")}`));
    if (missing.length) print(c.dim(`· not a file, sent as text: ${missing.join(", ")}`));
    for (const r of refused) print(c.yellow(`! not attached: ${r}`));
    await runTurn(text);
    if (!closed) await showBeforePrompt(ctx);
  }

  async function runTurn(prompt: string): Promise<void> {
    const render = createTranscript({ write: (t) => process.stdout.write(t), color, diff: renderDiff });
    const current: Turn = { controller: new AbortController(), render, finished: Promise.withResolvers<void>() };
    turn = current;
    for await (const event of runtime.runTurn(prompt, current.controller.signal)) {
      if (event.type === "tool-result" && current.diffShown) {
        const { display: _shown, ...rest } = event;
        render(rest);
      } else render(event);
      if (event.type === "tool-result") [current.interrupt, current.diffShown] = [undefined, false];
    }
    turn = undefined;
    current.finished.resolve();
  }

  /** Esc, or Ctrl-C with no command running: stop the turn, refuse a waiting question, drop the queue. */
  function abortTurn(current: Turn): void {
    queue.length = 0;
    if (pendingAnswer) {
      // Wipe the half-typed answer so it does not reappear at the next prompt, and leave the question's line.
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      process.stdout.write("\n");
      pendingAnswer(ABORTED_ANSWER);
    }
    current.controller.abort();
  }

  // readline records every line; an answer to a question is not a prompt worth recalling with ↑.
  rl.on("history", (entries: string[]) => {
    if (pendingAnswer && entries[0] === rl.line) entries.shift();
  });

  rl.on("line", (line) => {
    if (pendingAnswer) return pendingAnswer(line);
    if (line.trim() === "") return busy ? undefined : rl.prompt();
    if (!busy) return void submit(line);
    queue.push(line);
    const notice = `queued (${queue.length}): ${line}`;
    if (turn) turn.render({ type: "notice", level: "info", text: notice });
    else print(c.dim(`· ${notice}`));
  });

  process.stdin.on("keypress", (_s, key: { name?: string } | undefined) => {
    if (key?.name !== "escape") return;
    if (turn) abortTurn(turn);
    else commandAbort?.abort();
  });

  rl.on("SIGINT", () => {
    if (turn) {
      // Ctrl-C stops the running command but keeps the turn; with nothing running it stops the turn.
      if (turn.interrupt) return turn.interrupt.abort();
      return abortTurn(turn);
    }
    if (busy) return print(c.dim("(a command is running · Ctrl-D quits)"));
    if (rl.line !== "") {
      rl.write(null, { ctrl: true, name: "u" });
      return rl.prompt();
    }
    if (Date.now() - lastIdleInterrupt < 2000) return rl.close();
    lastIdleInterrupt = Date.now();
    print(c.dim("\n(press Ctrl-C again to quit)"));
    rl.prompt();
  });

  rl.on("close", () => {
    closed = true;
    queue.length = 0;
    const ending = turn;
    pendingAnswer?.(ABORTED_ANSWER);
    ending?.controller.abort(stoppedBy);
    process.stdout.write("\n");
    // Save after the aborted turn has recorded its partial answer (bounded, should a tool ignore the abort).
    const settled = ending ? Promise.race([ending.finished.promise, Bun.sleep(QUIT_GRACE_MS)]) : Promise.resolve();
    void settled
      .then(() => runtime.close())
      .then(() => {
        // Like /sessions shows it: the prefix -r accepts.
        const resume = runtime.session.messages.length ? `resume with: shiro -r ${runtime.session.id.slice(0, ID_PREFIX_CHARS)}` : "";
        if (!stoppedBy) {
          if (resume) print(c.dim(resume));
          return exit(0);
        }
        process.stderr.write(`${c.yellow("!")} ${stoppedWords(stoppedBy)}${resume && `; the session is saved (${resume})`}\n`);
        exit(stopExitCode(stoppedBy));
      });
  });

  if (flags.prompt) {
    // Shown as if typed, so the transcript reads the same as for a queued line.
    print(c.dim(`› ${flags.prompt}`));
    void submit(flags.prompt);
  } else rl.prompt();
  return exited;
}
