import * as readline from "node:readline";
import pc from "picocolors";
import type { Flags } from "../cli/args.ts";
import type { Config } from "../cli/config.ts";
import { startSession } from "../cli/start-session.ts";
import type { AskRequest } from "../guard/authorize.ts";
import { diskEnv, resolvePath } from "../guard/resolve-path.ts";
import { isSecret } from "../guard/secret-path.ts";
import { openHistory, HISTORY_CAP } from "../store/history-store.ts";
import { createTranscript } from "../ui/transcript.ts";
import { renderDiff } from "../ui/diff-view.ts";
import { VERSION } from "../version.ts";
import { APPROVAL_PROMPT, parseApproval, type ApprovalAnswer } from "./approval.ts";
import { attachMentions } from "./attach-mentions.ts";
import { COMMANDS, contextLine, showBeforePrompt, type ReplContext } from "./commands.ts";
import { createCompleter } from "./completer.ts";
import { parseSlash, unknownCommandLine } from "./slash-commands.ts";

type Turn = { controller: AbortController; interrupt?: AbortController; toolRunning: boolean };

/** The interactive session: readline, a queue for lines typed during a turn, Esc/Ctrl-C/Ctrl-D. */
export async function runRepl(flags: Flags, config: Config & { apiKey: string }): Promise<number> {
  const cwd = process.cwd();
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const c = pc.createColors(color);
  const print = (text: string) => process.stdout.write(text.endsWith("\n") ? text : text + "\n");
  const history = await openHistory(config.home, cwd);

  let turn: Turn | undefined;
  const queue: string[] = [];
  let pendingAnswer: ((line: string) => void) | undefined;
  let lastIdleInterrupt = 0;

  const askPerson = ({ summary, preview, always }: AskRequest) =>
    new Promise<ApprovalAnswer>((resolve) => {
      print(`${c.yellow("?")} ${summary}`);
      if (preview) print(renderDiff(preview, color));
      const promptLine = () => process.stdout.write(c.yellow(`${APPROVAL_PROMPT}${always.join(", ")}: `));
      promptLine();
      pendingAnswer = (line) => {
        const answer = parseApproval(line);
        if (!answer) return promptLine();
        pendingAnswer = undefined;
        resolve(answer);
      };
    });

  const warn = (line: string) => print(c.yellow(`! ${line}`));
  const runtime = await startSession({
    flags,
    config,
    cwd,
    warn,
    ask: askPerson,
    interruptSignal: () => {
      turn!.interrupt = new AbortController();
      return turn!.interrupt.signal;
    },
  });
  const confirm = (question: string) =>
    new Promise<boolean>((resolve) => {
      process.stdout.write(c.yellow(`${question} [y/N] `));
      pendingAnswer = (line) => {
        pendingAnswer = undefined;
        resolve(/^\s*y(es)?\s*$/i.test(line));
      };
    });
  const ctx: ReplContext = { runtime, print, color, confirm };
  const refuseAttachment = (path: string) => (isSecret(resolvePath(path, diskEnv(cwd))) ? "a secret file is never attached" : undefined);

  const rl = readline.createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
    prompt: c.bold(c.magenta("› ")),
    history: [...history.entries].reverse(),
    historySize: HISTORY_CAP,
    completer: createCompleter(cwd, COMMANDS),
    // Esc alone aborts a turn; readline's default 500 ms wait for an escape sequence feels sluggish.
    escapeCodeTimeout: 50,
  });
  if (history.warning) print(c.yellow(`! ${history.warning}`));
  print(`${c.bold("shiro")} ${VERSION} · ${runtime.session.model} · ${cwd} · ${contextLine(runtime, c)}`);
  print(c.dim("/help for commands · Esc aborts a turn · Ctrl-D quits"));

  let exit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (exit = resolve));

  async function submit(line: string): Promise<void> {
    if (line.trim() === "") return rl.prompt();
    await history.add(line);
    if (line.trimStart().startsWith("/")) {
      const parsed = parseSlash(line, COMMANDS);
      if (parsed.kind === "unknown") print(c.yellow(unknownCommandLine(parsed)));
      else if ((await parsed.command.run(ctx, parsed.arg)) === "exit") return rl.close();
      return rl.prompt(true);
    }
    const { text, attached, refused } = await attachMentions(line, cwd, refuseAttachment);
    if (attached.length) print(c.dim(`· attached ${attached.join(", ")}`));
    for (const r of refused) print(c.yellow(`! not attached: ${r}`));
    await runTurn(text);
  }

  async function runTurn(prompt: string): Promise<void> {
    turn = { controller: new AbortController(), toolRunning: false };
    const render = createTranscript({ write: (t) => process.stdout.write(t), color, diff: renderDiff });
    for await (const event of runtime.runTurn(prompt, turn.controller.signal)) {
      if (event.type === "tool-call") turn.toolRunning = true;
      if (event.type === "tool-result") turn.toolRunning = false;
      render(event);
    }
    turn = undefined;
    await showBeforePrompt(ctx);
    const next = queue.shift();
    if (next !== undefined) {
      print(c.dim(`› ${next}`));
      return submit(next);
    }
    // Keep the cursor after what was typed during the turn; prompt() alone moves it to the start.
    rl.prompt(true);
  }

  rl.on("line", (line) => {
    if (pendingAnswer) return pendingAnswer(line);
    if (turn) {
      queue.push(line);
      return print(c.dim(`  queued (${queue.length}): ${line}`));
    }
    void submit(line);
  });

  process.stdin.on("keypress", (_s, key: { name?: string } | undefined) => {
    if (key?.name !== "escape" || !turn) return;
    queue.length = 0;
    pendingAnswer?.("n the user pressed Esc to stop this turn");
    turn.controller.abort();
  });

  rl.on("SIGINT", () => {
    if (turn) {
      // Ctrl-C stops the running command but keeps the turn; with nothing running it stops the turn.
      if (turn.toolRunning && turn.interrupt) return turn.interrupt.abort();
      queue.length = 0;
      return turn.controller.abort();
    }
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
    queue.length = 0;
    turn?.controller.abort();
    process.stdout.write("\n");
    void runtime.save().then(() => exit(0));
  });

  if (flags.prompt) void submit(flags.prompt);
  else rl.prompt();
  return exited;
}
