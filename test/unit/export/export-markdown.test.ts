import { describe, expect, test } from "bun:test";
import { buildExport } from "../../../src/export/build-export.ts";
import { exportMarkdown } from "../../../src/export/export-markdown.ts";
import type { SessionExport } from "../../../src/export/export-schema.ts";
import { deniedOf, sampleLog, sampleState } from "../../support/export-fixtures.ts";

const MADE = { exportedAt: "2026-12-02T00:00:00.000Z", shiro: "1.2.3" };
const sample = (): SessionExport => buildExport({ state: sampleState(), denied: deniedOf(sampleLog()) }, MADE);

describe("exportMarkdown: the conversation as a person reads it", () => {
  const md = exportMarkdown(sample());

  test("the title and the session's facts open it; the footer says who made it and when", () => {
    expect(md.split("\n").slice(0, 4)).toEqual(["# Fix \\<b\\>the\\</b\\> bug \\#\\# and say why", "", "| | |", "|---|---|"]);
    expect(md).toContain("| state | interrupted |\n| tokens | 4,000 in (1,600 cached) · 800 out (200 reasoning) |\n| cost | $0.01 |");
    expect(md).toEndWith("_Exported by shiro 1.2.3 on 2026-12-02 00:00 UTC._\n");
  });

  test("each turn: the prompt quoted (its own heading stays inside the quote), the answer's byline, each call with its outcome line and diff", () => {
    expect(md).toContain("## Turn 1 · 2026-12-01 10:00 UTC\n\n> Fix <b>the</b> bug\n> ## and say why\n\n### shiro · gpt-5 · 1.2k tok · $0.0028\n");
    expect(md).toContain("**● edit\\_file** `src/a.ts`  \n✓ Edited src/a.ts: +1 −1 lines\n\n```diff\n--- src/a.ts\n+++ src/a.ts\n-let x = 1;\n+const x = 2;\n```\n");
    expect(md).toContain("**● bash** `rm -rf build`  \n✗ denied: rm -rf is refused by a rule\n");
    expect(md).toContain("**● read\\_file** `docs/a.md`  \n_no result: the call did not finish_\n");
    expect(md).toContain("### shiro · gpt-5 · 1.2k tok · $0.0028 · cut short: max\\_output\\_tokens\n\nHalf of the do\n");
    expect(md).toContain("### A hook's words to the model\n\n> The tests still fail: go on.\n");
    expect(md).toContain("### Compacted\n");
    expect(md).toContain("## Task list\n\n- \\[\\~\\] run the tests\n- \\[ \\] ship \\<it\\> — after review\n");
  });

  test("images are named, each on its own line", () => {
    expect(md).toContain("_[image: image/png, 70 B]_\n\n_[image: image/svg+xml, 11 B]_\n");
  });

  test("a tool's output stays code: its fence outruns the backticks inside, its controls are spelled out", () => {
    expect(md).toContain('<details><summary>output</summary>\n\n````text\nok </pre><script>alert("x")</script>\n```\n# not a heading\n\\x1b]52;c;Y3VybA==\\x07 done\n````\n\n</details>');
    expect(md).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/);
    // Outside code, what the output says is escaped: the outcome line cannot open a tag.
    expect(md).toContain("✓ ok \\</pre\\>\\<script\\>alert(\"x\")\\</script\\> (+3 lines)");
  });

  test("a subject holding backticks gets a longer code span", () => {
    const doc = sample();
    const answer = doc.messages[1]!;
    if (answer.role !== "assistant") throw new Error("no answer");
    const bash = answer.parts.find((p) => p.type === "tool-call" && p.name === "bash");
    if (bash?.type === "tool-call") bash.arguments = JSON.stringify({ command: "echo `date`" });
    expect(exportMarkdown(doc)).toContain("**● bash** `` echo `date` ``  \n");
  });

  test("children follow, a heading level down", () => {
    const doc = sample();
    const { format: _f, version: _v, exportedAt: _e, shiro: _s, ...child } = sample();
    child.session.title = "the child's task";
    doc.children = [child];
    const out = exportMarkdown(doc);
    expect(out).toContain("\n## the child's task\n");
    expect(out).toContain("\n### Turn 1 · 2026-12-01 10:00 UTC\n");
    expect(out.indexOf("## the child's task")).toBeGreaterThan(out.indexOf("## Task list"));
  });
});
