import pc from "picocolors";
import { shownAsIs } from "../text/terminal-text.ts";
import type { Flags } from "../runtime/settings.ts";
import type { Config } from "../runtime/settings.ts";
import { startRuntime } from "../runtime/start-runtime.ts";
import { askProjectServers } from "./mcp-command.ts";
import { attachMentions } from "../context/attach-mentions.ts";
import { onStopSignal, type StopSignal } from "../exit/stop-signals.ts";
import type { AskAnswer, AskRequest } from "../guard/authorize.ts";
import { openHistory } from "../store/history-store.ts";
import { plural } from "../text/plural.ts";
import { renderDiff } from "../ui/diff-view.ts";
import { builtinNames, COMMANDS, showBeforePrompt, type ReplContext } from "./commands.ts";
import { createCompleter } from "./completer.ts";
import { createDoubleEscape } from "./double-escape.ts";
import { createLivePrompt } from "./live-prompt.ts";
import { createLiveScreen, createPlainScreen } from "./live-screen.ts";
import { createPromptInput } from "./prompt-input.ts";
import { endSession } from "./end-session.ts";
import { newTurn, playTurn, type Turn } from "./repl-turn.ts";
import { showHeader } from "./repl-header.ts";
import { parseSlash, slashMenu, unknownCommandLine } from "./slash-commands.ts";
import { surviveHangUp } from "./survive-hang-up.ts";
import { openTerminalInput } from "./terminal-input.ts";
import { REWIND } from "./undo-commands.ts";
import { savedCommandsTable, type SavedTable } from "./saved-commands-table.ts";
import type { CommandTurn } from "../commands/saved-commands.ts";

/** A prompt typed while work runs: sent as `text`, shown (pastes collapsed) as `shown`. */
type Queued = { text: string; shown: string };

/** The refusal an aborted turn gives to a question still waiting. */
const STOPPED: AskAnswer = { answer: "no", reason: "they stopped the turn" };
/** A slash command's status line shows only if it takes longer than this (most answer at once). */
const COMMAND_STATUS_DELAY_MS = 300;

/** The interactive session: the live prompt, a queue for prompts typed during a turn, Esc/Ctrl-C/Ctrl-D. */
export async function runRepl(flags: Flags, config: Config & { apiKey: string }): Promise<number> {
  const cwd = process.cwd();
  const stdout = process.stdout;
  const color = Boolean(stdout.isTTY) && !process.env.NO_COLOR;
  const c = pc.createColors(color);
  const columns = () => stdout.columns || 80;
  const history = await openHistory(config.home, cwd);
  const write = (text: string) => void stdout.write(text);
  // Not a terminal (shiro > log): text as it comes, no prompt or status line drawn into the file.
  const screen = stdout.isTTY ? createLiveScreen({ write, columns, rows: () => stdout.rows || 24 }) : createPlainScreen(write);
  // The built-in commands, then the saved ones (read once the runtime is up).
  let saved: SavedTable | undefined;
  const table = () => [...COMMANDS, ...(saved?.rows() ?? [])];
  const input = createPromptInput(history, createCompleter(cwd, table));

  let turn: Turn | undefined;
  // The model call a slash command is waiting on (/compact, /memory), for Esc to cancel.
  let commandAbort: AbortController | undefined;
  const queue: Queued[] = [];
  let lastIdleInterrupt = 0;
  /** Esc Esc at an empty, idle prompt opens /rewind's picker. */
  const escapes = createDoubleEscape();
  let closed = false;
  /** A line (prompt or slash command) is being handled. */
  let busy = false;
  /** A CI runner's SIGTERM or a closed terminal ends the session as Ctrl-D does, exiting 143 or 129. */
  let stoppedBy: StopSignal | undefined;
  surviveHangUp(() => (stoppedBy ??= "SIGHUP"));

  const live = createLivePrompt({
    screen,
    input,
    menu: (typed) => {
      // A commands file added or changed shows at the next keystroke after it is read.
      void saved?.refresh();
      return slashMenu(typed, table());
    },
    c,
    columns,
    events: { submit: (text, shown) => (refusedNow(text) ? undefined : busy ? enqueue({ text, shown }) : void start({ text, shown })), interrupt, escape, eof: () => close() },
  });
  const print = (text: string) => live.print(text.endsWith("\n") ? text : text + "\n");
  const warn = (line: string) => print(c.yellow(`! ${line}`));

  const askPerson = async ({ summary, preview, always }: AskRequest): Promise<AskAnswer> => {
    print(`${c.yellow("?")} ${shownAsIs(summary)}`);
    if (preview) print(renderDiff(preview, color));
    if (preview && turn) turn.diffShown = true;
    const asked = await live.approve(always);
    if (asked === "eof") close();
    else if (asked === "stopped" && turn) abortTurn(turn);
    return asked === "eof" || asked === "stopped" ? STOPPED : asked;
  };

  const arrived = new Set<string>();
  const runtime = await startRuntime({
    flags,
    config,
    cwd,
    warn,
    builtinCommands: builtinNames(),
    ask: askPerson,
    // A project's hooks run as the person, so the person reads them first.
    approveHooks: async (lines) => {
      for (const line of lines) print(shownAsIs(line));
      const yes = await live.confirm("Run these hooks? (remembered until they change)");
      if (yes === "eof") close();
      return yes === true;
    },
    // Servers start in the background while the person types: each says once that it is up, a failure in one line.
    reportMcp: (e, line) => {
      if (line !== undefined) return warn(line);
      if (e.status !== "connected" || arrived.has(e.server)) return;
      arrived.add(e.server);
      print(c.dim(`· MCP server "${e.server}" is up: ${plural(e.tools ?? 0, "tool")}`));
    },
    interruptSignal: () => {
      const interrupt = new AbortController();
      if (turn) turn.interrupt = interrupt;
      return interrupt.signal;
    },
  });
  if (!runtime.store.saves) history.keepInMemory();
  const confirm = async (question: string) => {
    const yes = await live.confirm(question);
    if (yes === "eof") close();
    return yes === true;
  };
  const pick: ReplContext["pick"] = async (list) => {
    const chosen = await live.pick(list);
    if (chosen === "eof") close();
    return chosen === "eof" ? undefined : chosen;
  };
  const refill = (text: string) => {
    if (input.draft.text === "") input.recall(text);
  };
  saved = savedCommandsTable(runtime.commands, {
    changed: () => live.render(),
    play: async (prompt, command) => {
      await runTurn(prompt, command);
      if (!closed) await showBeforePrompt(ctx);
    },
  });
  const ctx: ReplContext = { runtime, config, print, color, confirm, pick, refill, columns, rows: () => stdout.rows || 24, signal: new AbortController().signal };

  const terminal = openTerminalInput({
    key: (key) => {
      if (key.name !== "escape") escapes.reset();
      return key.name === "ctrl-z" ? suspend() : live.key(key);
    },
    end: () => {
      stoppedBy ??= "SIGHUP";
      close();
    },
    resumed: () => live.render(),
  });
  stdout.on("resize", () => {
    screen.resized();
    live.render();
  });
  onStopSignal(["SIGTERM", "SIGHUP"], (signal) => {
    stoppedBy ??= signal;
    close();
  });
  if (history.warning) warn(history.warning);
  showHeader(ctx, c, config.apiKey !== "");
  // Read once at the start, so a clash with a built-in is said before the first prompt.
  await saved?.refresh();
  // A project's hooks are shown and asked about as the session starts; a prompt typed meanwhile waits for the answer.
  void runtime.readyHooks();
  // A project's MCP servers start only once the person said yes to exactly what they run.
  // Outside a turn nothing else redraws the prompt once the last answer settled.
  void askProjectServers(ctx)
    .catch((err: Error) => warn(err.message))
    .finally(() => live.render());

  let exit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (exit = resolve));

  function suspend(): void {
    screen.draw({ rows: [], cursor: { row: 0, before: "" } });
    terminal.suspend();
  }

  function enqueue(line: Queued): void {
    queue.push(line);
    live.setQueue(queue.map((q) => q.shown));
  }

  function start(line: Queued): Promise<void> {
    live.echo(line.shown);
    return submit(line.text);
  }

  /** A command that acts on the turns (/undo) typed while one runs: said no to at once, not queued behind it. */
  function refusedNow(line: string): boolean {
    if (!turn || !line.trimStart().startsWith("/")) return false;
    const parsed = parseSlash(line, table());
    if (parsed.kind !== "command" || !parsed.command.notDuringTurn) return false;
    print(c.yellow(`! /${parsed.command.name} waits for the turn to end (Esc stops it); it stays in the prompt for Enter then`));
    input.replace(line.trim());
    return true;
  }

  /** Runs a line, then each line queued meanwhile; while busy, typed lines wait in the queue. `quiet`: a key's own command, not typed (no history). */
  async function submit(line: string, quiet = false): Promise<void> {
    busy = true;
    const slash = line.trimStart().startsWith("/");
    live.busy(slash ? { kind: "command", name: line.trim().split(/\s/)[0]! } : undefined, slash ? COMMAND_STATUS_DELAY_MS : 0);
    try {
      if ((await runLine(line, quiet)) === "exit") return close();
    } catch (err) {
      print(c.red(`error: ${(err as Error)?.message ?? String(err)}`));
    }
    if (closed) return;
    const next = queue.shift();
    if (next !== undefined) {
      live.setQueue(queue.map((q) => q.shown));
      return start(next);
    }
    busy = false;
    live.idle();
  }

  async function runLine(line: string, quiet: boolean): Promise<void | "exit"> {
    const unsaved = quiet ? undefined : await history.add(line);
    if (unsaved) warn(unsaved);
    if (line.trimStart().startsWith("/")) {
      await saved?.refresh();
      const parsed = parseSlash(line, table());
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
    const { text, attached, refused, missing, notices } = await attachMentions(line, cwd);
    if (attached.length) print(c.dim(`· attached ${attached.join(", ")}`));
    if (missing.length) print(c.dim(`· not a file, sent as text: ${missing.join(", ")}`));
    for (const r of refused) print(c.yellow(`! not attached: ${r}`));
    for (const n of notices) print(c.yellow(`! ${n}`));
    await runTurn(text);
    if (!closed) await showBeforePrompt(ctx);
  }

  async function runTurn(prompt: string, command?: CommandTurn): Promise<void> {
    turn = newTurn();
    try {
      await playTurn(turn, runtime, prompt, { write: (t) => live.print(t), observe: (event) => live.event(event), color }, command);
    } finally {
      turn = undefined;
    }
  }

  /** Esc, or Ctrl-C with no command running: stop the turn, refuse a waiting question, drop the queue (saying so). */
  function abortTurn(current: Turn): void {
    if (queue.length) print(c.dim(`· dropped ${plural(queue.length, "queued prompt")}: ${queue.map((q) => q.shown.split("\n")[0]).join(" · ")}`));
    queue.length = 0;
    live.setQueue([]);
    current.controller.abort();
    live.dropQuestion();
  }

  function escape(): void {
    if (turn) return abortTurn(turn);
    if (commandAbort) return commandAbort.abort();
    // Counted only at rest: the Esc that stopped a turn or a command is no first press, so Esc again after it opens nothing.
    if (!busy && input.draft.text === "" && escapes.press(Date.now())) void submit(`/${REWIND}`, true);
  }

  function interrupt(): void {
    if (turn) {
      // Ctrl-C stops the running command but keeps the turn; with nothing running it stops the turn.
      if (turn.interrupt) return turn.interrupt.abort();
      return abortTurn(turn);
    }
    if (input.draft.text !== "") {
      input.clear();
      return live.render();
    }
    if (busy) return print(c.dim("(a command is running · Esc cancels it · Ctrl-D quits)"));
    if (Date.now() - lastIdleInterrupt < 2000) return close();
    lastIdleInterrupt = Date.now();
    print(c.dim("(press Ctrl-C again to quit)"));
  }

  function close(): void {
    if (closed) return;
    closed = true;
    queue.length = 0;
    const ending = turn;
    ending?.controller.abort(stoppedBy);
    live.dropQuestion();
    live.close();
    terminal.close();
    void endSession({ runtime, ending, stoppedBy, write, c }).then(exit);
  }

  if (flags.prompt) void start({ text: flags.prompt, shown: flags.prompt });
  else live.render();
  return exited;
}
