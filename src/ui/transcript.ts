import pc from "picocolors";
import type { AgentEvent } from "../agent/events.ts";
import { callSubject, failureLine, outcomeLine, resultMark, resultText } from "./tool-line.ts";

export type TranscriptOptions = {
  write: (text: string) => void;
  color: boolean;
  /** Colours a unified diff (writes show theirs in the transcript). */
  diff: (unified: string, color: boolean) => string;
};

/**
 * Renders a run for a person at a terminal: streamed text, one line per tool call with its subject
 * and a one-line outcome, diffs for writes, notices and errors.
 */
export function createTranscript({ write, color, diff }: TranscriptOptions): (event: AgentEvent) => void {
  const c = pc.createColors(color);
  let atLineStart = true;
  let inReasoning = false;
  const out = (text: string) => {
    if (text === "") return;
    write(text);
    atLineStart = text.endsWith("\n");
  };
  const line = (text: string) => {
    if (!atLineStart) out("\n");
    out(text + "\n");
  };

  return (event) => {
    if (event.type !== "reasoning-delta" && inReasoning) {
      inReasoning = false;
      line("");
    }
    switch (event.type) {
      case "text-delta":
        out(event.text);
        break;
      case "reasoning-delta":
        inReasoning = true;
        out(c.dim(c.italic(event.text)));
        break;
      case "tool-call":
        line(`${c.cyan("●")} ${c.bold(event.name)} ${c.dim(callSubject(event.arguments))}`);
        break;
      case "tool-output":
        out(c.dim(event.chunk));
        break;
      case "tool-result": {
        const summary = event.isError && !event.denied ? failureLine(event.output) : outcomeLine(resultText(event));
        line(`  ${resultMark(event, c)} ${summary}`);
        if (event.display && !event.isError) line(indent(diff(event.display, color)));
        break;
      }
      case "notice":
        line(event.level === "warn" ? c.yellow(`! ${event.text}`) : c.dim(`· ${event.text}`));
        break;
      case "error":
        line(c.red(`error: ${event.error.message}`));
        break;
      case "end":
        if (!atLineStart) out("\n");
        if (event.status === "max-steps") line(c.yellow(`! stopped after ${event.steps} model calls (max steps)`));
        if (event.status === "aborted") line(c.yellow("! aborted"));
        break;
      case "compacted":
      case "message":
        break;
    }
  };
}

const indent = (text: string) => text.replace(/\n$/, "").split("\n").map((l) => `    ${l}`).join("\n");
