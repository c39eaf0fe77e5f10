import pc from "picocolors";
import type { AgentEvent } from "../loop/events.ts";
import { retryLine } from "./retry-line.ts";
import { createBoldMarkers, type Span } from "./bold-markers.ts";
import { createReplayFilter, type Shown, type StreamKind } from "./replay-filter.ts";
import { callSubject, modelCalls, resultMark, resultSummary } from "./tool-line.ts";
import { createChildLines } from "./child-lines.ts";

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
  let streamedOutput = false;
  // Judged on the text before colouring: a colour's closing code would hide a final newline.
  const out = (text: string, paint: (t: string) => string = String) => {
    if (text === "") return;
    write(paint(text));
    atLineStart = text.endsWith("\n");
  };
  const line = (text: string) => {
    if (!atLineStart) out("\n");
    out(text + "\n");
  };

  const childLines = createChildLines(c);
  const markers = createBoldMarkers();
  const reasoning = (spans: Span[]) => {
    for (const span of spans) out(span.text, (t) => (span.bold ? c.bold(c.italic(t)) : c.dim(c.italic(t))));
  };
  const endReasoning = () => {
    if (!inReasoning) return;
    reasoning(markers.flush());
    inReasoning = false;
    line("");
  };
  const streamed = (kind: StreamKind, text: string) => {
    if (text === "") return;
    if (kind === "text") {
      endReasoning();
      out(text);
    } else {
      inReasoning = true;
      reasoning(markers.feed(text));
    }
  };
  // A retry repeats what was streamed; the notice waits until the new stream departs from it.
  const replay = createReplayFilter();
  let retryNotice: string | undefined;
  const show = (shown: Shown | undefined, kind: StreamKind) => {
    if (!shown) return;
    if ("show" in shown) return streamed(kind, shown.show);
    endReasoning();
    const notice = retryNotice ?? "the model call was retried";
    line(c.yellow(`! ${shown.restart.length ? `${notice}; its answer starts over:` : notice}`));
    for (const piece of shown.restart) streamed(piece.kind, piece.text);
  };

  // Commentary and the final answer are separate messages: a blank line keeps them from running together.
  let lastPhase: string | undefined;
  const separated = (event: Extract<AgentEvent, { type: "text-delta" }>) => {
    const gap = lastPhase !== undefined && event.phase !== undefined && event.phase !== lastPhase ? "\n\n" : "";
    lastPhase = event.phase ?? lastPhase;
    return gap + event.text;
  };

  return (event) => {
    if (event.type === "text-delta") return show(replay.delta("text", separated(event)), "text");
    if (event.type === "reasoning-delta") return show(replay.delta("reasoning", event.text), "reasoning");
    // A retry after text was shown waits to see whether the new stream departs from it.
    if (event.type === "retry") lastPhase = undefined;
    if (event.type === "retry" && replay.retry()) {
      retryNotice = retryLine(event);
      return;
    }
    if (event.type === "message" || event.type === "error" || event.type === "end") {
      show(replay.finish(), "text");
      retryNotice = undefined;
      lastPhase = undefined;
    }
    endReasoning();
    switch (event.type) {
      case "tool-call":
        line(`${c.cyan("●")} ${c.bold(event.name)} ${c.dim(callSubject(event.arguments))}`);
        break;
      case "tool-output":
        out(event.chunk, c.dim);
        streamedOutput = true;
        break;
      case "tool-result": {
        line(`  ${resultMark(event, c)} ${resultSummary(event, streamedOutput)}`);
        streamedOutput = false;
        if (event.display && !event.isError) line(indent(diff(event.display, color)));
        break;
      }
      case "notice":
        line(event.level === "warn" ? c.yellow(`! ${event.text}`) : c.dim(`· ${event.text}`));
        break;
      case "retry":
        line(c.yellow(`! ${retryLine(event)}`));
        break;
      case "error":
        line(c.red(`error: ${event.error.message}`));
        break;
      case "end":
        if (!atLineStart) out("\n");
        if (event.status === "max-steps") line(c.yellow(`! stopped after ${modelCalls(event.steps)} (--max-steps); send a message to go on`));
        if (event.status === "aborted") line(c.yellow("! aborted"));
        break;
      case "agent-start":
      case "agent-end":
      case "child":
        for (const text of childLines(event)) line(text);
        break;
      case "compacted":
      case "message":
        break;
    }
  };
}

const indent = (text: string) => text.replace(/\n$/, "").split("\n").map((l) => `    ${l}`).join("\n");
