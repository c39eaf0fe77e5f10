import { terminalStream } from "../text/terminal-text.ts";
import { RUN_TIMEOUT } from "../loop/events.ts";
import type { Config, Flags } from "../services/settings.ts";
import { startMainAgent } from "../agent/start-main-agent.ts";
import { turnOnModel } from "../agent/turn-on-model.ts";
import { dropFailedWrites, onStopSignal, stopExitCode, stoppedWords, type StopSignal } from "../exit/stop-signals.ts";
import { assemblePrompt } from "./assemble-prompt.ts";
import { readPrompt } from "./read-prompt.ts";
import { EXIT } from "./exit-code.ts";
import { checkOutputPath, writeAnswer } from "./write-answer.ts";
import { loadOutputSchema } from "./output-schema.ts";
import { renderPrint } from "./render-print.ts";
import { mcpLine } from "./json-line.ts";
import type { EventOf } from "../session/session-event.ts";
import { commandPrompt } from "../agent/command-prompt.ts";
import { readImageFlags } from "../context/image-flags.ts";
import { imagesNotTaken } from "../wire/image-input.ts";

const STDIN_SILENT_MS = 5000;

/** `builtins`: the REPL's command names, which a saved command may not take (asked only for a `/` prompt). */
export async function runPrint(flags: Flags, config: Config & { apiKey: string }, builtins: () => Promise<readonly string[]>): Promise<number> {
  // Refused before stdin is read or anything is sent: a CI step learns of a bad schema or path for free.
  const schema = flags.outputSchema === undefined ? undefined : await loadOutputSchema(flags.outputSchema);
  if (flags.output !== undefined) checkOutputPath(flags.output);
  const imageFlags = await readImageFlags(flags.images, process.cwd());
  const controller = new AbortController();
  // --timeout counts from the start: a CI step's budget is wall time, whatever it was spent on.
  const limit = flags.timeout === undefined ? undefined : setTimeout(() => controller.abort(RUN_TIMEOUT), flags.timeout * 1000);
  // From the start too: a CI runner's SIGTERM may come while stdin is still being waited for.
  let stoppedBy: StopSignal | undefined;
  onStopSignal(["SIGINT", "SIGTERM", "SIGHUP"], (signal) => {
    stoppedBy = signal;
    // The reason reaches a killed command's result, so `shiro -c` tells the model why it stopped.
    controller.abort(signal);
  });
  dropFailedWrites();
  const color = Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  // With --json a warning is an event like any other, so scripts see it too.
  const warn = (line: string) =>
    flags.json ? process.stdout.write(JSON.stringify({ type: "notice", level: "warn", text: line }) + "\n") : process.stderr.write(`! ${line}\n`);
  const input = await untilAborted(
    readPrompt({
      arg: flags.prompt,
      stdin: process.stdin.isTTY ? undefined : (Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>),
      silentMs: STDIN_SILENT_MS,
      warn,
    }),
    controller.signal,
  );
  if (!input) {
    const why = stoppedBy ? stoppedWords(stoppedBy) : "stopped at --timeout";
    process.stderr.write(`! ${why} while waiting for stdin; nothing was sent (pass < /dev/null to run without it)\n`);
    return stoppedBy ? stopExitCode(stoppedBy) : EXIT.limit;
  }

  const builtinCommands = input.prompt.startsWith("/") ? await builtins() : [];
  // With --json each change of an MCP server is an event (which servers' tools the run had); otherwise a failure is a line.
  const reportMcp = (e: EventOf<"mcp">, line: string | undefined) => (flags.json ? process.stdout.write(JSON.stringify(mcpLine(e)) + "\n") : line !== undefined && warn(line));
  const main = await startMainAgent({ flags, config, cwd: process.cwd(), warn, builtinCommands, reportMcp, ...(schema ? { textFormat: schema.format } : {}) });
  const command = await commandPrompt(input.prompt, main.services.commands, main.agent.commandCalls, controller.signal, warn, builtinCommands);
  if (command && !command.ok) {
    process.stderr.write(`${command.unknown ? "shiro: " : "! "}${command.message}${controller.signal.aborted ? "" : "; nothing was sent"}\n`);
    await main.close();
    if (command.unknown) return EXIT.usage;
    // Stopped while a `!`cmd`` ran: as any run stopped early, not as a refusal.
    if (controller.signal.aborted) return stoppedBy ? stopExitCode(stoppedBy) : EXIT.limit;
    return EXIT.denied;
  }
  // Fitted once the session is open, so a window learned by an earlier run (`-c`) counts.
  const prompt = await assemblePrompt(command ? { ...input, prompt: command.prompt } : input, { root: process.cwd(), threshold: main.agent.contextUse().threshold, warn, attached: command !== undefined });
  const images = [...imageFlags.map((f) => f.image), ...(command?.turn.images ?? []), ...prompt.images];
  const turn = { ...command?.turn, ...(images.length ? { images } : {}) };
  const notTaken = imagesNotTaken(turn.model ?? main.agent.session.model, images.length);
  if (notTaken) warn(notTaken);

  const asIs = (t: string) => t;
  const toStdout = process.stdout.isTTY ? terminalStream() : asIs;
  const toStderr = process.stderr.isTTY ? terminalStream() : asIs;
  const outcome = await renderPrint(
    turnOnModel(main.agent, prompt.text, controller.signal, turn),
    {
      // At a terminal the answer and the progress are text, colours at most: nothing the model wrote moves the cursor or sets the clipboard.
      out: (t) => process.stdout.write(toStdout(t)),
      err: (t) => process.stderr.write(toStderr(t)),
      json: flags.json,
      color,
      // Half an answer in a schema is no JSON: it is printed once checked.
      liveText: Boolean(process.stdout.isTTY) && !flags.json && !schema,
      stoppedBy: () => stoppedBy,
      ...(schema ? { mismatch: schema.mismatch } : {}),
      saved: () => main.services.sessions.saves || (flags.ephemeral ? "--ephemeral" : "$SHIRO_HOME cannot be written"),
    },
    (outcome) => ({ costUsd: main.agent.costOf(outcome.usage) ?? null, sessionId: main.agent.session.id }),
  );
  clearTimeout(limit);
  await main.close();
  if (flags.output === undefined || outcome.status !== "done") return outcome.code;
  return (await writeAnswer(flags.output, outcome.text, warn)) ? outcome.code : EXIT.failure;
}

/** The value, or undefined once the signal aborts first (stdin may never end). */
const untilAborted = <T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> =>
  new Promise((resolve, reject) => {
    signal.addEventListener("abort", () => resolve(undefined), { once: true });
    work.then(resolve, reject);
  });
