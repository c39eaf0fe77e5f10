import type { Flags } from "../cli/args.ts";
import type { Config } from "../cli/config.ts";
import { startSession } from "../cli/start-session.ts";
import { dropFailedWrites, onStopSignal, type StopSignal } from "../cli/stop-signals.ts";
import { readPrompt } from "./read-prompt.ts";
import { renderPrint } from "./render-print.ts";

const STDIN_SILENT_MS = 500;

export async function runPrint(flags: Flags, config: Config & { apiKey: string }): Promise<number> {
  const { prompt, notice } = await readPrompt({
    arg: flags.prompt,
    stdin: process.stdin.isTTY ? undefined : (Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>),
    silentMs: STDIN_SILENT_MS,
  });
  const color = Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  // With --json a warning is an event like any other, so scripts see it too.
  const warn = (line: string) =>
    flags.json ? process.stdout.write(JSON.stringify({ type: "notice", level: "warn", text: line }) + "\n") : process.stderr.write(`! ${line}\n`);
  if (notice) warn(notice);

  const runtime = await startSession({ flags, config, cwd: process.cwd(), warn });
  const controller = new AbortController();
  let stoppedBy: StopSignal | undefined;
  onStopSignal(["SIGINT", "SIGTERM", "SIGHUP"], (signal) => {
    stoppedBy = signal;
    controller.abort();
  });
  dropFailedWrites();

  return renderPrint(
    runtime.runTurn(prompt, controller.signal),
    {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
      json: flags.json,
      color,
      liveText: Boolean(process.stdout.isTTY) && !flags.json,
      stoppedBy: () => stoppedBy,
    },
    (outcome) => ({ costUsd: runtime.costOf(outcome.usage) ?? null, sessionId: runtime.session.id }),
  );
}
