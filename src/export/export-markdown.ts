import { todoLine } from "../session/notebook.ts";
import { spelledControls } from "../text/spelled-controls.ts";
import { callSubject } from "../ui/tool-line.ts";
import { answerFacts, callResults, imageLabel, sessionFacts, when } from "./export-facts.ts";
import type { ExportedSession, ExportImage, ExportMessage, ExportResult, SessionExport } from "./export-schema.ts";

type Answer = Extract<ExportMessage, { role: "assistant" }>;

/**
 * `shiro export --format md`: the conversation as a person reads it — each prompt (quoted), the
 * answer, each tool call with its outcome line, the diff of what it wrote and its output (folded),
 * the cost — then the sessions of agents it started. Prompts and answers are Markdown already and go
 * as written; everything a tool returned goes in code, where nothing in it is markup. Control
 * characters are spelled out (`\x1b`): a terminal showing the file obeys none.
 */
export function exportMarkdown(doc: SessionExport): string {
  return [...sessionBlocks(doc, 1), `_Exported by shiro ${doc.shiro} on ${when(doc.exportedAt)}._`, ""].join("\n");
}

function sessionBlocks(s: ExportedSession, level: number): string[] {
  const h = (n: number) => "#".repeat(level + n);
  const results = callResults(s.messages);
  const out = [`${h(0)} ${inline(s.session.title || "(no prompt)")}`, "", "| | |", "|---|---|", ...sessionFacts(s).map(([k, v]) => `| ${k} | ${inline(v)} |`), ""];
  for (const m of s.messages) out.push(...messageBlocks(m, results, h));
  if (s.todos.length) out.push(`${h(1)} Task list`, "", ...s.todos.map((t) => `- ${inline(todoLine(t))}`), "");
  for (const child of s.children) out.push(...sessionBlocks(child, level + 1));
  return out;
}

function messageBlocks(m: ExportMessage, results: Map<string, ExportResult>, h: (n: number) => string): string[] {
  switch (m.role) {
    case "user":
      return [m.turn ? `${h(1)} Turn ${m.turn} · ${when(m.at ?? "")}` : `${h(2)} A hook's words to the model`, "", quoted(m.text), "", ...images(m.images)];
    case "assistant":
      return answerBlocks(m, results, h);
    case "tool":
      return []; // each result is shown with its call
    case "compaction":
      return [`${h(2)} Compacted`, "", "What came before was summarised for the model:", "", ...folded("summary", spelledControls(m.summary))];
  }
}

function answerBlocks(m: Answer, results: Map<string, ExportResult>, h: (n: number) => string): string[] {
  const out = [`${h(2)} shiro · ${inline(answerFacts(m))}`, ""];
  for (const part of m.parts) {
    if (part.type === "reasoning" && part.summary.length) out.push(...folded("thinking", spelledControls(part.summary.join("\n\n"))));
    if (part.type === "text" && part.text) out.push(spelledControls(part.text), "");
    if (part.type !== "tool-call") continue;
    const r = results.get(part.callId);
    const subject = callSubject(part.arguments, 200);
    out.push(`**● ${inline(part.name)}**${subject ? ` ${code(subject)}` : ""}  `, r ? inline(r.outcome ?? "") : "_no result: the call did not finish_", "");
    if (!r) continue;
    if (r.diff) out.push(fence(r.diff, "diff"), "");
    out.push(...folded("output", fence(r.output, "text")), ...images(r.images));
  }
  return out;
}

/** A `<details>` block GitHub folds; its body is Markdown, a fenced block where it is to stay text. */
const folded = (summary: string, body: string) => [`<details><summary>${summary}</summary>`, "", body, "", "</details>", ""];

const images = (list: readonly ExportImage[] | undefined) => (list ?? []).flatMap((i) => [`_[image: ${inline(imageLabel(i))}]_`, ""]);

/** The person's words, quoted: their Markdown stays theirs, and no line of it can pass for a heading of the export. */
const quoted = (text: string) => spelledControls(text).split("\n").map((l) => (l ? `> ${l}` : ">")).join("\n");

/** Text set in a line of the export: nothing in it reads as markup. */
const inline = (text: string) => spelledControls(text).replace(/[\\`*_{}[\]<>#|!~]/g, "\\$&");

/** A code span that holds any backticks in `text`. */
function code(text: string): string {
  const ticks = "`".repeat(longestRun(text) + 1);
  return `${ticks}${text.startsWith("`") || text.endsWith("`") ? ` ${spelledControls(text)} ` : spelledControls(text)}${ticks}`;
}

/** A fenced block longer than any run of backticks inside it, so nothing in the text can close it. */
function fence(text: string, lang: string): string {
  const ticks = "`".repeat(Math.max(3, longestRun(text) + 1));
  return `${ticks}${lang}\n${spelledControls(text).replace(/\n$/, "")}\n${ticks}`;
}

const longestRun = (text: string) => Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
