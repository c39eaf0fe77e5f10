import { describe, expect, test } from "bun:test";
import { buildExport } from "../../../src/export/build-export.ts";
import { exportHtml } from "../../../src/export/export-html.ts";
import type { SessionExport } from "../../../src/export/export-schema.ts";
import { deniedOf, PNG, sampleLog, sampleState } from "../../support/export-fixtures.ts";

const MADE = { exportedAt: "2026-12-02T00:00:00.000Z", shiro: "1.2.3" };
const sample = (): SessionExport => buildExport({ state: sampleState(), denied: deniedOf(sampleLog()) }, MADE);
/** The page's tags, as a browser would start them: every `<name` in the text. */
const tagsOf = (html: string) => new Set([...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase()));

/** What shiro itself writes: any other tag in the page came from the session, unescaped. */
const OWN_TAGS = ["html", "head", "meta", "title", "style", "body", "main", "h1", "dl", "dt", "dd", "div", "details", "summary", "b", "code", "pre", "span", "img", "ul", "li", "section", "footer"];

describe("exportHtml: one page, every piece of the session escaped", () => {
  test("a session whose prompt, answer, outputs, tool names, todos and images try to be markup: only shiro's own tags, no script, nothing fetched", () => {
    const doc = sample();
    const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:x">';
    doc.session.title = hostile;
    doc.session.cwd = hostile;
    doc.todos.push({ content: hostile, status: "blocked" });
    for (const m of doc.messages) {
      if (m.role === "user") m.text = hostile;
      if (m.role === "compaction") m.summary = hostile;
      if (m.role === "assistant") for (const p of m.parts) if (p.type === "text") p.text = hostile;
      if (m.role === "assistant") for (const p of m.parts) if (p.type === "reasoning") p.summary = [hostile];
      if (m.role === "assistant") for (const p of m.parts) if (p.type === "tool-call" && p.name === "bash") p.name = hostile;
      if (m.role === "tool") for (const r of m.results) Object.assign(r, { output: hostile, outcome: hostile, ...(r.diff ? { diff: `+${hostile}` } : {}) });
    }
    const html = exportHtml(doc);
    expect([...tagsOf(html)].filter((t) => !OWN_TAGS.includes(t))).toEqual([]);
    expect(html.toLowerCase()).not.toContain("<script");
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<a ");
    // Each piece is there, as text.
    expect(html.split("&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;&lt;a href=&quot;javascript:x&quot;&gt;").length).toBeGreaterThan(15);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`);
    expect(html).not.toMatch(/(?:src|href)="(?!data:image\/)/);
  });

  test("the control: the same page from an honest session shows its PNG, its diff and its outcomes", () => {
    const html = exportHtml(sample());
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain(`<img alt="image/png, 70 B" src="data:image/png;base64,${PNG}">`);
    expect(html).toContain('<div class="outcome">[image: image/svg+xml, 11 B, not shown]</div>');
    expect(html).toContain('<span class="del">-let x = 1;</span>\n<span class="add">+const x = 2;</span>');
    expect(html).toContain('<div class="outcome failed">✗ denied: rm -rf is refused by a rule</div>');
    expect(html).toContain('<div class="outcome failed">no result: the call did not finish</div>');
    expect(html).toContain("ok &lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("<dt>cost</dt><dd>$0.01</dd>");
    expect(html).toContain("<li>[~] run the tests</li>");
  });

  test("an image is shown only as a PNG, JPEG, GIF or WebP whose data is base64; anything else is named", () => {
    const doc = sample();
    const tool = doc.messages.find((m) => m.role === "tool")!;
    if (tool.role !== "tool") throw new Error("no results");
    tool.results[0]!.images = [
      { mediaType: "image/gif", data: "R0lGODlhAQABAAAAACw=" },
      { mediaType: "image/png", data: '"><script>alert(1)</script>' },
      { mediaType: "text/html", data: "PHNjcmlwdD4=" },
    ];
    const html = exportHtml(doc);
    expect(html).toContain('src="data:image/gif;base64,R0lGODlhAQABAAAAACw="');
    expect(html).toContain("[image: image/png, 20 B, not shown]");
    expect(html).toContain("[image: text/html, 8 B, not shown]");
    expect(html.toLowerCase()).not.toContain("<script");
  });

  test("a terminal's control characters are spelled out; children are sections of their own", () => {
    const doc = sample();
    const { format: _f, version: _v, exportedAt: _e, shiro: _s, ...child } = sample();
    child.session.title = "the child's task";
    doc.children = [child];
    const html = exportHtml(doc);
    expect(html).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/);
    expect(html).toContain("\\x1b]52;c;Y3VybA==\\x07 done");
    expect(html).toContain(`<section class="child"><h1>the child&#39;s task</h1>`);
  });
});
