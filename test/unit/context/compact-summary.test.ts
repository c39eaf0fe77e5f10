import { describe, expect, test } from "bun:test";
import type { Message } from "../../../src/session/messages.ts";
import { acceptSummary, buildSummaryRequestText, SUMMARY_SECTIONS } from "../../../src/context/summary.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import { history } from "../../support/history-builders.ts";
import { prng, randomHistory } from "../../support/random-history.ts";
import { clipText } from "../../../src/text/clip-text.ts";
import { activeStart } from "../../../src/wire/serialise-input.ts";

/** The transcript as it was made before it was made from the newest entry back: every entry, then the fit. */
function wholeTranscript(messages: readonly Message[], budget: number): string {
  const entries: string[] = [];
  for (let i = activeStart(messages); i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "compaction") entries.push(`[earlier summary]\n${m.summary}`);
    else if (m.role === "user") entries.push(`[user]\n${clipText(m.text, 6_000)}`);
    else if (m.role === "tool") for (const r of m.results) entries.push(`[${r.isError ? "error" : "result"} ${r.callId}]\n${clipText(r.output, 1_500)}`);
    else
      for (const p of m.parts) {
        if (p.type === "text" && p.text.trim()) entries.push(`[assistant]\n${clipText(p.text, 1_500)}`);
        if (p.type === "tool-call") entries.push(`[call ${p.callId}] ${p.name} ${clipText(p.arguments, 500)}`);
      }
  }
  let total = entries.reduce((n, e) => n + e.length + 2, 0);
  if (total <= budget || entries.length < 2) return entries.join("\n\n");
  let from = 1;
  while (from < entries.length - 1 && total > budget) total -= entries[from++]!.length + 2;
  return [entries[0]!, `[… ${from - 1} entries left out …]`, ...entries.slice(from)].join("\n\n");
}

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

  test("made from the newest entry back, the transcript is the one made whole and then fitted, whatever the history and budget", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rng = prng(seed);
      const messages = randomHistory(rng);
      if (rng.chance(0.2)) messages.splice(rng.int(0, messages.length), 0, { role: "compaction", summary: "an earlier summary" });
      const budget = rng.pick([0, 10, 200, 2_000, 20_000, 300_000]);
      const text = buildSummaryRequestText(messages, undefined, budget);
      expect([seed, text.slice(text.indexOf("<transcript>\n") + 13, -14)]).toEqual([seed, wholeTranscript(messages, budget)]);
    }
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
