import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/session/messages.ts";
import { acceptSummary, buildSummaryRequestText, SUMMARY_SECTIONS } from "../../src/context/summary.ts";
import { serialiseInput } from "../../src/wire/serialise-input.ts";
import { history } from "../support/history-builders.ts";

const goodSummary = `## Goal\nFix the parser.\n## Files touched\nsrc/parse.ts\n## Decisions\nKeep the lexer.\n## Commands and outcomes\nbun test: 2 failing\n## What remains\nFix the two tests.`;

describe("/compact", () => {
  test("the request asks for the five sections, the focus, and carries the transcript", () => {
    const text = buildSummaryRequestText(history("TASK: fix the parser", 3), "the failing tests");
    for (const s of SUMMARY_SECTIONS) expect(text).toContain(`## ${s}`);
    expect(text).toContain("Pay particular attention to: the failing tests");
    expect(text).toContain("Do not call tools.");
    expect(text).toContain("[user]\nTASK: fix the parser");
    expect(text).toContain('[call call_3] read_file {"path":"src/f3.ts"}');
    expect(buildSummaryRequestText(history("t", 1))).not.toContain("Pay particular attention");
  });

  test("a transcript over budget keeps the task and the newest entries", () => {
    const text = buildSummaryRequestText(history("TASK: fix the parser", 200), undefined, 20_000);
    expect(text.length).toBeLessThan(25_000);
    expect(text).toContain("TASK: fix the parser");
    expect(text).toContain("[call call_200]");
    expect(text).toMatch(/\[… \d+ entries left out …\]/);
  });

  test("an unusable reply changes nothing; a good one becomes the marker the serialiser starts from", () => {
    expect(acceptSummary(undefined)).toBeNull();
    expect(acceptSummary("   ")).toBeNull();
    expect(acceptSummary("Sorry, I can't help with that.")).toBeNull();
    expect(acceptSummary(goodSummary.replace("## Goal", "## Aim"))).toBeNull();
    const h: Message[] = history("task", 3);
    const marker = acceptSummary(`\n${goodSummary}\n`)!;
    expect(marker).toEqual({ role: "compaction", summary: goodSummary });
    const input = serialiseInput([...h, marker], { model: "gpt-5" }) as Record<string, any>[];
    expect(input).toHaveLength(1);
    expect(input[0]!.content[0].text).toEndWith(goodSummary);
  });
});
