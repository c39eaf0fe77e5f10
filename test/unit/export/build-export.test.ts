import { describe, expect, test } from "bun:test";
import { buildExport } from "../../../src/export/build-export.ts";
import { sessionExportSchema } from "../../../src/export/export-schema.ts";
import { toolDiff } from "../../../src/export/tool-diff.ts";
import { deniedOf, PNG, sampleLog, sampleState } from "../../support/export-fixtures.ts";

const MADE = { exportedAt: "2026-12-02T00:00:00.000Z", shiro: "1.2.3" };
const doc = () => buildExport({ state: sampleState(), denied: deniedOf(sampleLog()) }, MADE);
const results = () => doc().messages.flatMap((m) => (m.role === "tool" ? m.results : []));

describe("buildExport: a session's state → the documented JSON shape", () => {
  test("the header and the session's facts; the shape is the schema's, field for field", () => {
    const d = doc();
    expect(sessionExportSchema.parse(d)).toEqual(d);
    expect([d.format, d.version, d.exportedAt, d.shiro, d.children]).toEqual(["shiro-session", 1, MADE.exportedAt, "1.2.3", []]);
    expect(d.session).toEqual({
      id: "01a00000-0000-7000-8000-000000000001",
      title: "Fix <b>the</b> bug ## and say why",
      cwd: "/work/project",
      model: "gpt-5",
      createdAt: "2026-12-01T10:00:00.000Z",
      updatedAt: "2026-12-01T10:00:00.000Z",
      state: "interrupted",
    });
    expect(d.todos.map((t) => t.content)).toEqual(["run the tests", "ship <it>"]);
  });

  test("prompts carry their turn and time; a hook's words to the model carry neither", () => {
    const users = doc().messages.filter((m) => m.role === "user");
    expect(users).toEqual([
      { role: "user", text: "Fix <b>the</b> bug\n## and say why", turn: 1, at: "2026-12-01T10:00:00.000Z" },
      { role: "user", text: "The tests still fail: go on." },
      { role: "user", text: "and the docs?", turn: 2, at: "2026-12-01T10:05:00.000Z" },
    ]);
  });

  test("no provider id and no encrypted reasoning leaves: only what a reader or another account can use", () => {
    const json = JSON.stringify(doc());
    for (const word of ["itemId", "responseId", "encrypted", "gAAAsealed", "resp_1", "fc_c1", "rs_1"]) expect(json).not.toContain(word);
    const first = doc().messages[1]!;
    expect(first.role === "assistant" && first.parts[0]).toEqual({ type: "reasoning", summary: ["**Plan**\n\nRead, then write."] });
  });

  test("each result: its tool, its outcome line as the transcript says it, denial, images and what it wrote", () => {
    expect(results().map((r) => [r.tool, r.outcome, r.denied ?? false])).toEqual([
      ["edit_file", "✓ Edited src/a.ts: +1 −1 lines", false],
      ["write_file", "✓ Created src/new.ts (1 line)", false],
      ["write_file", "✓ Updated src/old.ts: +1 −3 lines", false],
      ["apply_patch", "✓ Applied patch: (+1 line)", false],
      ["edit_file", "✗ old_string not found in src/c.ts", false],
      ["bash", "✗ denied: rm -rf is refused by a rule", true],
      ["mcp__shots__screenshot", "✓ [image 1: image/png, 70 B]", false],
      ["bash", expect.stringMatching(/^✓ ok <\/pre><script>/), false],
    ]);
    expect(results()[6]!.images).toEqual([{ mediaType: "image/png", data: PNG }, { mediaType: "image/svg+xml", data: "PHN2Zz48L3N2Zz4=" }]);
    // An edit, a new file and a patch have a diff; a file replaced whole (its old text is in no log) and a failed edit have none.
    expect(results().map((r) => r.diff)).toEqual([
      "--- src/a.ts\n+++ src/a.ts\n-let x = 1;\n+const x = 2;\n",
      "--- /dev/null\n+++ src/new.ts\n+export {};\n",
      undefined,
      "*** Begin Patch\n*** Update File: src/b.ts\n-a\n+b\n*** End Patch\n",
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("the cost: each answer's and the session's, by the model's price; null where no price is known", () => {
    const d = doc();
    const answers = d.messages.filter((m) => m.role === "assistant");
    expect(answers.map((m) => m.costUsd)).toEqual(Array(4).fill(0.0028));
    expect(d.totals).toEqual({ usage: { inputTokens: 4000, cachedTokens: 1600, outputTokens: 800, reasoningTokens: 200 }, costUsd: 0.0112 });
    const state = sampleState();
    for (const m of state.messages) if (m.role === "assistant") m.model = "my-local-model";
    const unpriced = buildExport({ state, denied: new Set() }, MADE);
    const costs = unpriced.messages.flatMap((m) => (m.role === "assistant" ? [m.costUsd] : []));
    expect([unpriced.totals.costUsd, ...costs]).toEqual(Array(5).fill(null));
  });

  test("whatever images a person's prompt holds go with it", () => {
    const state = sampleState();
    Object.assign(state.messages[0]!, { images: [{ mediaType: "image/jpeg", data: "/9j/4A==" }] });
    const first = buildExport({ state, denied: new Set() }, MADE).messages[0]!;
    expect(first.role === "user" && first.images).toEqual([{ mediaType: "image/jpeg", data: "/9j/4A==" }]);
  });

  test("children go in as given, each the same shape", () => {
    const child = buildExport({ state: sampleState(), denied: new Set() }, MADE);
    const { format: _f, version: _v, exportedAt: _e, shiro: _s, ...body } = child;
    const parent = buildExport({ state: sampleState(), denied: new Set(), children: [body] }, MADE);
    expect(sessionExportSchema.parse(parent).children).toEqual([body]);
  });
});

describe("toolDiff: what a file tool wrote, from its arguments", () => {
  const ok = { callId: "c", output: "Created a.txt (2 lines)" };
  test("a new file is every line added; an edit its old text and new; a patch as given", () => {
    expect(toolDiff("write_file", JSON.stringify({ path: "a.txt", content: "one\ntwo" }), ok)).toBe("--- /dev/null\n+++ a.txt\n+one\n+two\n");
    expect(toolDiff("edit_file", JSON.stringify({ path: "a.txt", old_string: "a\nb\nc\n", new_string: "a\nB\nc\n" }), ok)).toBe("--- a.txt\n+++ a.txt\n a\n-b\n+B\n c\n");
    expect(toolDiff("apply_patch", JSON.stringify({ patch: "*** Begin Patch\n*** End Patch\n" }), ok)).toBe("*** Begin Patch\n*** End Patch\n");
  });
  test("none for a failure, a replaced file, another tool, or arguments that are not the tool's", () => {
    expect(toolDiff("write_file", JSON.stringify({ path: "a.txt", content: "x" }), { ...ok, isError: true })).toBeUndefined();
    expect(toolDiff("write_file", JSON.stringify({ path: "a.txt", content: "x" }), { callId: "c", output: "Updated a.txt: +1 −1 lines" })).toBeUndefined();
    expect(toolDiff("bash", JSON.stringify({ command: "echo > a.txt" }), ok)).toBeUndefined();
    for (const args of ["{not json", "null", "7", JSON.stringify({ path: 3, old_string: "a", new_string: "b" })]) expect(toolDiff("edit_file", args, ok)).toBeUndefined();
  });
});
