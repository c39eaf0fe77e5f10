import { todoLine } from "../session/notebook.ts";
import { spelledControls } from "../text/spelled-controls.ts";
import { callSubject } from "../ui/tool-line.ts";
import { answerFacts, callResults, imageLabel, sessionFacts, when } from "./export-facts.ts";
import type { ExportedSession, ExportImage, ExportMessage, ExportResult, SessionExport } from "./export-schema.ts";
import { EXPORT_STYLE } from "./export-style.ts";

type Answer = Extract<ExportMessage, { role: "assistant" }>;

/** Formats a browser shows from a data: URL without trouble; any other image is named, not shown. */
const SHOWN_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * `shiro export --format html`: the conversation in one self-contained page — no script, no request
 * for anything (its policy allows only its own style and data: images). Every piece of the session
 * goes in escaped, as text: a prompt, an answer or a tool's output holding `<script>` shows it.
 */
export function exportHtml(doc: SessionExport): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(doc.session.title || "(no prompt)")} · shiro session</title>`,
    `<style>${EXPORT_STYLE}</style></head>`,
    "<body><main>",
    ...sessionHtml(doc),
    `<footer>Exported by shiro ${esc(doc.shiro)} on ${esc(when(doc.exportedAt))}.</footer>`,
    "</main></body></html>",
    "",
  ].join("\n");
}

function sessionHtml(s: ExportedSession): string[] {
  const results = callResults(s.messages);
  const facts = sessionFacts(s).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join("");
  const todos = s.todos.length ? [`<div class="note"><div class="who">Task list</div><ul>${s.todos.map((t) => `<li>${esc(todoLine(t))}</li>`).join("")}</ul></div>`] : [];
  const children = s.children.map((c) => `<section class="child">${sessionHtml(c).join("\n")}</section>`);
  return [`<h1>${esc(s.session.title || "(no prompt)")}</h1>`, `<dl class="facts">${facts}</dl>`, ...s.messages.map((m) => messageHtml(m, results)).filter(Boolean), ...todos, ...children];
}

function messageHtml(m: ExportMessage, results: Map<string, ExportResult>): string {
  switch (m.role) {
    case "user": {
      const who = m.turn ? `› Turn ${m.turn} · ${when(m.at ?? "")}` : "A hook's words to the model";
      return `<div class="user"><div class="who">${esc(who)}</div><div class="text">${esc(m.text)}</div>${images(m.images)}</div>`;
    }
    case "assistant":
      return answerHtml(m, results);
    case "tool":
      return ""; // each result is shown with its call
    case "compaction":
      return `<div class="note"><div class="who">Compacted: what came before was summarised for the model</div>${folded("summary", `<div class="text">${esc(m.summary)}</div>`)}</div>`;
  }
}

function answerHtml(m: Answer, results: Map<string, ExportResult>): string {
  const body = m.parts.map((part) => {
    if (part.type === "reasoning") return part.summary.length ? folded("thinking", `<div class="text">${esc(part.summary.join("\n\n"))}</div>`) : "";
    if (part.type === "text") return part.text ? `<div class="text">${esc(part.text)}</div>` : "";
    const r = results.get(part.callId);
    const subject = callSubject(part.arguments, 200);
    const call = `<div class="call">● <b>${esc(part.name)}</b>${subject ? ` <code>${esc(subject)}</code>` : ""}</div>`;
    if (!r) return `<div class="tool">${call}<div class="outcome failed">no result: the call did not finish</div></div>`;
    const outcome = `<div class="outcome ${r.isError ? "failed" : "ok"}">${esc(r.outcome ?? "")}</div>`;
    const diff = r.diff ? `<pre class="diff">${diffHtml(r.diff)}</pre>` : "";
    return `<div class="tool">${call}${outcome}${diff}${folded("output", `<pre>${esc(r.output)}</pre>`)}${images(r.images)}</div>`;
  });
  return `<div class="assistant"><div class="who">${esc(`shiro · ${answerFacts(m)}`)}</div>${body.join("")}</div>`;
}

const folded = (summary: string, body: string) => `<details><summary>${summary}</summary>${body}</details>`;

/** A diff's lines coloured by their first character, each escaped. */
const diffHtml = (diff: string) =>
  diff
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => {
      const kind = /^(\+\+\+|---|@@)/.test(line) ? "hunk" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
      return kind ? `<span class="${kind}">${esc(line)}</span>` : esc(line);
    })
    .join("\n");

/** Each image inline when it is one a browser shows, else named. */
const images = (list: readonly ExportImage[] | undefined) =>
  (list ?? [])
    .map((i) =>
      SHOWN_IMAGES.has(i.mediaType) && BASE64.test(i.data)
        ? `<img alt="${esc(imageLabel(i))}" src="data:${i.mediaType};base64,${i.data}">`
        : `<div class="outcome">[image: ${esc(imageLabel(i))}, not shown]</div>`,
    )
    .join("");

/** Text made safe to set anywhere in the page, text or attribute; control characters spelled out. */
const esc = (text: string): string => spelledControls(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
