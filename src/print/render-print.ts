import pc from "picocolors";
import type { AgentEvent } from "../loop/events.ts";
import { emptyUsage, splitAnswer, textOf, type AssistantMessage } from "../session/messages.ts";
import type { StopSignal } from "../exit/stop-signals.ts";
import { retryLine } from "../ui/retry-line.ts";
import { callSubject, resultMark, resultSummary } from "../ui/tool-line.ts";
import { createChildLines } from "../ui/child-lines.ts";
import { EXIT, exitCodeFor } from "./exit-code.ts";
import { jsonLine, type ResultLine } from "./json-line.ts";
import { stopLine } from "./stop-line.ts";
import type { PrintOutcome } from "./print-outcome.ts";

export type { PrintOutcome };

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
  /** `--output-schema`: why a final answer does not match, checked before it is printed. */
  mismatch?: (answer: string) => string | undefined;
  /** Whether the session is saved (a stopped run can be continued), or why it is not: "--ephemeral", a home that cannot be written. */
  saved: true | (() => true | string);
};


/**
 * Renders a run for pipes and CI: stdout carries only the final answer (or, with --json, one event
 * per line); progress goes to stderr. An answer that does not match --output-schema is a failure and
 * is not printed. Returns how the run ended.
 */
export async function renderPrint(
  events: AsyncIterable<AgentEvent>,
  io: PrintIO,
  result: (outcome: PrintOutcome) => Omit<ResultLine, "type" | "status" | "text" | "steps" | "usage" | "signal">,
): Promise<PrintOutcome> {
  const c = pc.createColors(io.color);
  const childLines = createChildLines(c);
  let finalText = "";
  let streamed = false;
  let outcome: PrintOutcome = { code: 1, status: "error", text: "", steps: 0, usage: emptyUsage() };

  for await (const event of events) {
    if (io.json) {
      const line = jsonLine(event);
      if (line) io.out(JSON.stringify(line) + "\n");
    }
    switch (event.type) {
      case "text-delta":
        // Commentary is progress: it goes to stderr with its message, never to stdout.
        if (!io.json && io.liveText && event.phase !== "commentary") {
          io.out(event.text);
          streamed = true;
        }
        break;
      case "retry":
        if (io.json) break;
        // A retried answer streams again from the start: end the cut-off line and say so.
        if (streamed) io.out("\n");
        io.err(`${c.yellow("!")} ${retryLine(event)}${streamed ? "; its answer starts over:" : ""}\n`);
        streamed = false;
        break;
      case "message":
        if (event.message.role === "assistant") {
          const shown = splitForPrint(event.message, io.liveText);
          if (shown.answer !== undefined) finalText = shown.answer;
          if (shown.progress.trim() && !io.json) io.err(c.dim(shown.progress.trim()) + "\n");
          if (shown.unstreamed && !io.json) io.out(shown.unstreamed);
          if ((streamed || shown.unstreamed) && !io.json) io.out("\n");
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
        if (!io.json) io.err(`${event.level === "warn" ? c.yellow("!") : c.dim("·")} ${event.text}\n`);
        break;
      case "error":
        if (!io.json) io.err(`${c.red("error:")} ${event.error.message}\n`);
        break;
      case "agent-start":
      case "agent-end":
      case "child":
        if (!io.json) for (const line of childLines(event)) io.err(`${line}\n`);
        break;
      case "end":
        outcome = { code: exitCodeFor(event.status, event.denials, io.stoppedBy?.()), status: event.status, text: finalText, steps: event.steps, usage: event.usage };
        break;
    }
  }

  const mismatch = outcome.status === "done" ? io.mismatch?.(outcome.text) : undefined;
  if (mismatch) {
    outcome = { ...outcome, code: EXIT.failure, status: "error" };
    if (io.json) io.out(JSON.stringify({ type: "error", message: mismatch, status: null, code: "output_schema_mismatch" }) + "\n");
    else io.err(`${c.red("error:")} ${mismatch}\n`);
  }
  const signal = outcome.status === "aborted" ? (io.stoppedBy?.() ?? "SIGINT") : undefined;
  const extra = result(outcome);
  if (io.json) {
    const line: ResultLine = { type: "result", status: outcome.status, text: outcome.text, steps: outcome.steps, usage: outcome.usage, ...(signal ? { signal } : {}), ...extra };
    io.out(JSON.stringify(line) + "\n");
  } else if (!io.liveText && outcome.text && !mismatch) {
    io.out(outcome.text.endsWith("\n") ? outcome.text : outcome.text + "\n");
  }
  const stopped = io.json ? undefined : stopLine(outcome, { signal, costUsd: extra.costUsd, saved: io.saved === true ? true : io.saved() });
  if (stopped) io.err(`${c.yellow("!")} ${stopped}\n`);
  return outcome;
}

/**
 * One response as print mode shows it: `answer` (a response without calls), the `progress` for
 * stderr (commentary, or text before calls), and, live, any answer text not streamed (commentary-only).
 */
function splitForPrint(m: AssistantMessage, live: boolean): { answer?: string; progress: string; unstreamed: string } {
  const textOfPhase = (commentary: boolean) =>
    m.parts.flatMap((p) => (p.type === "text" && (p.phase === "commentary") === commentary ? [p.text] : [])).join("");
  // Live, text that is not commentary was streamed to stdout as it came.
  const streamed = live ? textOfPhase(false) : "";
  if (m.parts.some((p) => p.type === "tool-call")) return { progress: live ? textOfPhase(true) : textOf(m), unstreamed: "" };
  const { answer, commentary } = splitAnswer(m);
  return { answer, progress: commentary, unstreamed: live && answer !== streamed ? answer : "" };
}
