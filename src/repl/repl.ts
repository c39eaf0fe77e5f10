import pc from "picocolors";
import type { CommandTurn } from "../commands/saved-commands.ts";
import type { Config, Flags } from "../services/settings.ts";
import { openHistory } from "../store/history-store.ts";
import { COMMANDS, type ReplContext } from "./commands.ts";
import { createCompleter } from "./completer.ts";
import { endSession } from "./end-session.ts";
import { createLineDispatch } from "./line-dispatch.ts";
import { createLineQueue } from "./line-queue.ts";
import { createLineRunner } from "./line-runner.ts";
import { createLivePrompt, type PromptEvents } from "./live-prompt.ts";
import { createLiveScreen, createPlainScreen } from "./live-screen.ts";
import { askProjectServers } from "./mcp-command.ts";
import { createPersonQuestions } from "./person-questions.ts";
import { createPromptInput } from "./prompt-input.ts";
import { showHeader } from "./repl-header.ts";
import { createKeyActions } from "./repl-keys.ts";
import { createLifecycle } from "./repl-lifecycle.ts";
import { startReplAgent } from "./repl-agent.ts";
import { savedCommandsTable, type SavedTable } from "./saved-commands-table.ts";
import { slashMenu } from "./slash-commands.ts";
import { openTerminalInput } from "./terminal-input.ts";
import { createWorkSlot } from "./work-slot.ts";
import type { CurrentAgent } from "../agent/current-agent.ts";
import { readImageFlags } from "../context/image-flags.ts";
import { pastedImage, promptImage } from "./pasted-image.ts";
import { withImages } from "./paste.ts";
import { modeBadge } from "./mode-badge.ts";

/**
 * The interactive session, composed of parts that each own their state: the terminal and the live
 * prompt, what is running (work-slot), where an entered line goes (line-dispatch) and the lines typed
 * meanwhile (line-queue), the keys (repl-keys), the questions to the person, the line runner, and how
 * it ends (repl-lifecycle).
 */
export async function runRepl(flags: Flags, config: Config & { apiKey: string }): Promise<number> {
  const cwd = process.cwd();
  // A bad -i stops here, before the session opens; a good one goes with the first prompt, by its mention.
  const images = (await readImageFlags(flags.images, cwd)).map((flag) => promptImage(flag.given, cwd));
  const stdout = process.stdout;
  const color = Boolean(stdout.isTTY) && !process.env.NO_COLOR;
  const c = pc.createColors(color);
  const columns = () => stdout.columns || 80;
  const write = (text: string) => void stdout.write(text);
  const history = await openHistory(config.home, cwd);
  // Not a terminal (shiro > log): text as it comes, no prompt or status line drawn into the file.
  const screen = stdout.isTTY ? createLiveScreen({ write, columns, rows: () => stdout.rows || 24 }) : createPlainScreen(write);
  // The built-in commands, then the saved ones (read once the agent is up).
  let saved: SavedTable | undefined;
  const table = () => [...COMMANDS, ...(saved?.rows() ?? [])];
  const input = createPromptInput(history, createCompleter(cwd, table), (text) => pastedImage(text, cwd));
  const slot = createWorkSlot();
  const lifecycle = createLifecycle();
  // The prompt raises its keys' events before the parts that answer them exist (they need the prompt): connected below.
  const answer: { to?: PromptEvents; run?: (line: string) => void } = {};
  let current: CurrentAgent | undefined;
  const live = createLivePrompt({
    screen,
    input,
    // A commands file added or changed shows at the next keystroke after it is read.
    menu: (typed) => (void saved?.refresh(), slashMenu(typed, table())),
    c,
    columns,
    events: { submit: (text, shown) => answer.to?.submit(text, shown), interrupt: () => answer.to?.interrupt(), escape: () => answer.to?.escape(), eof: lifecycle.close },
    badge: () => (current ? modeBadge(current.agent.mode) : undefined),
    jobs: () => current?.agent.jobs.running() ?? 0,
  });
  const print = (text: string) => live.print(text.endsWith("\n") ? text : text + "\n");
  const warn = (line: string) => print(c.yellow(`! ${line}`));
  const queue = createLineQueue({ show: live.setQueue, print, c });
  const keys = createKeyActions({ slot, queue, draft: () => input.draft.text, clearDraft: () => (input.clear(), live.render()), dropQuestion: live.dropQuestion, print, c, run: (line) => answer.run?.(line), close: lifecycle.close });
  const questions = createPersonQuestions({ live, slot, print, color, c, close: lifecycle.close, abortTurn: keys.abortTurn });
  const main = await startReplAgent({ flags, config, cwd, questions, slot, print, warn, c });
  current = main;
  // A job that starts or ends changes the status line, whether or not a turn runs.
  main.services.jobs.onChange(() => live.render());
  if (!main.services.sessions.saves) history.keepInMemory();
  const refill = (text: string) => void (input.draft.text === "" && input.recall(text));
  const ctx: ReplContext = { current: main, config, print, color, confirm: questions.confirm, pick: questions.pick, refill, columns, rows: () => stdout.rows || 24, signal: new AbortController().signal };
  const runner = createLineRunner({ ctx, slot, cwd, table, saved: () => saved, history, out: { write: (t) => live.print(t), observe: (event) => live.event(event), color }, print, warn, c, closed: () => lifecycle.closed, queued: () => queue.length > 0, offer: questions.offer });
  const lines = createLineDispatch({ live, slot, queue, runner, lifecycle, table, putBack: (line) => input.replace(line), print, c });
  answer.to = { submit: lines.entered, interrupt: keys.interrupt, escape: keys.escape, eof: lifecycle.close };
  // A key's own command (double Esc's /rewind) runs quietly: not echoed, not kept in history.
  answer.run = (line) => void lines.submit(line, true);
  saved = savedCommandsTable(main.services.commands, { changed: () => live.render(), play: (prompt: string, command: CommandTurn) => runner.runTurn(prompt, command) });
  const terminal = openTerminalInput({ key: (key) => (keys.key(key.name), key.name === "ctrl-z" ? suspend() : live.key(key)), end: lifecycle.hungUp, resumed: () => live.render() });
  stdout.on("resize", () => (screen.resized(), live.render()));
  lifecycle.onClose((stoppedBy) => {
    queue.clear();
    const ending = slot.turn;
    ending?.controller.abort(stoppedBy);
    live.dropQuestion();
    live.close();
    terminal.close();
    return endSession({ main, ending, stoppedBy, write, c });
  });
  if (history.warning) warn(history.warning);
  showHeader(ctx, c, config.apiKey !== "");
  // Read once at the start, so a clash with a built-in is said before the first prompt.
  await saved.refresh();
  // A project's hooks are asked about as the session starts; a prompt typed meanwhile waits for the answer.
  void main.services.hooks?.ready();
  // A project's MCP servers start only once the person said yes to exactly what they run; nothing else redraws the prompt after.
  void askProjectServers(ctx)
    .catch((err: Error) => warn(err.message))
    .finally(() => live.render());

  function suspend(): void {
    screen.draw({ rows: [], cursor: { row: 0, before: "" } });
    terminal.suspend();
  }

  if (flags.prompt) void lines.start(withImages(flags.prompt, images));
  else {
    images.forEach(input.addImage);
    live.render();
  }
  return lifecycle.ended;
}
