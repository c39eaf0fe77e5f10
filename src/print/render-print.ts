import pc from "picocolors";
import type { AgentEvent, EndStatus } from "../agent/events.ts";
import { emptyUsage, textOf, type Usage } from "../agent/messages.ts";
import { RETRY_NOTICE } from "../agent/run.ts";
import { stoppedWords, type StopSignal } from "../cli/stop-signals.ts";
import { createReplayFilter, type Shown } from "../ui/replay-filter.ts";
import { callSubject, modelCalls, resultMark, resultSummary } from "../ui/tool-line.ts";
import { exitCodeFor } from "./exit-code.ts";
import { jsonLine, type ResultLine } from "./json-line.ts";

export type PrintIO = {
  out: (text: string) => void;
  err: (text: string) => void;
  json: boolean;
  /** Colour on stderr (a terminal, no NO_COLOR). */
  color: boolean;
  /** stdout is a terminal: a person is watching, so stream the text live. */
  liveText: boolean;
  /** The signal that stopped the run (Ctrl-C, a CI runner's SIGTERM, a closed terminal), once one has. */
  stoppedBy?: () => StopSignal | undefined;
};

export type PrintOutcome = { code: number; status: EndStatus; text: string; steps: number; usage: Usage };

/**
 * Renders a run for pipes and CI: stdout carries only the final answer (or, with --json, one event
 * per line); progress goes to stderr. Returns the exit code.
 */
export async function renderPrint(
  events: AsyncIterable<AgentEvent>,
  io: PrintIO,
  result: (outcome: PrintOutcome) => Omit<ResultLine, "type" | "status" | "text" | "steps" | "usage" | "signal">,
): Promise<number> {
  const c = pc.createColors(io.color);
  let finalText = "";
  let streamed = false;
  let outcome: PrintOutcome = { code: 1, status: "error", text: "", steps: 0, usage: emptyUsage() };

  // Live text on a terminal: a retried stream repeats what was shown; print only what is new (as the REPL does).
  const replay = createReplayFilter();
  let retryNotice = "";
  const showLive = (shown: Shown | undefined) => {
    if (!shown) return;
    if ("show" in shown) return io.out(shown.show);
    io.err(`\n${c.yellow("!")} ${retryNotice}${shown.restart.length ? "; its answer starts over:" : ""}\n`);
    io.out(shown.restart.map((p) => p.text).join(""));
  };

  for await (const event of events) {
    if (io.json) {
      const line = jsonLine(event);
      if (line) io.out(JSON.stringify(line) + "\n");
    }
    if (!io.json && io.liveText && (event.type === "message" || event.type === "error" || event.type === "end")) showLive(replay.finish());
    switch (event.type) {
      case "text-delta":
        if (!io.json && io.liveText) {
          showLive(replay.delta("text", event.text));
          streamed = true;
        }
        break;
      case "message":
        if (event.message.role === "assistant") {
          const text = textOf(event.message);
          const hasCalls = event.message.parts.some((p) => p.type === "tool-call");
          if (!hasCalls) finalText = text;
          else if (text && !io.json && !io.liveText) io.err(c.dim(text.trim()) + "\n");
          if (streamed && text) io.out("\n");
          streamed = false;
        }
        break;
      case "tool-call":
        if (!io.json) io.err(`${c.cyan("→")} ${c.bold(event.name)} ${callSubject(event.arguments)}\n`);
        break;
      case "tool-result":
        if (!io.json) {
          io.err(`  ${resultMark(event, c)} ${resultSummary(event)}\n`);
        }
        break;
      case "notice":
        if (!io.json && io.liveText && event.text.startsWith(RETRY_NOTICE) && replay.retry()) retryNotice = event.text;
        else if (!io.json) io.err(`${event.level === "warn" ? c.yellow("!") : c.dim("·")} ${event.text}\n`);
        break;
      case "error":
        if (!io.json) io.err(`${c.red("error:")} ${event.error.message}\n`);
        break;
      case "end":
        outcome = { code: exitCodeFor(event.status, event.denials, io.stoppedBy?.()), status: event.status, text: finalText, steps: event.steps, usage: event.usage };
        break;
    }
  }

  const signal = outcome.status === "aborted" ? (io.stoppedBy?.() ?? "SIGINT") : undefined;
  if (io.json) {
    const line: ResultLine = { type: "result", status: outcome.status, text: outcome.text, steps: outcome.steps, usage: outcome.usage, ...(signal ? { signal } : {}), ...result(outcome) };
    io.out(JSON.stringify(line) + "\n");
  } else if (!io.liveText && outcome.text) {
    io.out(outcome.text.endsWith("\n") ? outcome.text : outcome.text + "\n");
  }
  if (!io.json && signal) io.err(`${c.yellow("!")} ${stoppedWords(signal)}; the session is saved (continue it with shiro -c)\n`);
  if (!io.json && outcome.status === "max-steps") io.err(`${c.yellow("!")} stopped after ${modelCalls(outcome.steps)} (--max-steps); the job is not finished (continue it with shiro -c, or raise --max-steps)\n`);
  return outcome.code;
}
