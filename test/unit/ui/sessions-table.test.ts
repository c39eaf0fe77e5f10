import { describe, expect, test } from "bun:test";
import { ageText, costReport, sessionsJson, sessionsTable, uniquePrefixes } from "../../../src/ui/sessions-table.ts";
import type { SessionMeta } from "../../../src/store/session-store.ts";
import { sessionTotals } from "../../../src/pricing/session-totals.ts";

const now = new Date("2026-01-10T12:00:00Z");
const meta = (id: string, minutesAgo: number, title: string, tokens: number, costUsd: number | null, messageCount = 4, state: SessionMeta["state"] = "answered"): SessionMeta => ({
  id,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: new Date(now.getTime() - minutesAgo * 60_000).toISOString(),
  cwd: "/p",
  model: "gpt-5",
  title,
  messageCount,
  usage: { inputTokens: tokens, cachedTokens: 0, outputTokens: 0, reasoningTokens: 7 },
  costUsd,
  state,
});

describe("sessions views", () => {
  test("/sessions: aligned rows with id prefix, age, title, what became of the last run, messages, tokens and cost or ?", () => {
    const table = sessionsTable(
      [
        meta("019a0000-aaaa-7000-8000-000000000001", 3, "fix the login bug", 12_345, 0.0421, 12),
        meta("019a0000-bbbb-7000-8000-000000000002", 60 * 26, "add a README", 950, null, 4, "no-answer"),
        meta("019a0000-cccc-7000-8000-000000000003", 60 * 50, "port the tests", 950, null, 4, "interrupted"),
      ],
      now,
    );
    expect(table).toBe(
      [
        "id                age  title              state        messages     tokens   cost",
        "019a0000-aaaa  3m ago  fix the login bug  answered      12 msgs  12.3k tok  $0.04",
        "019a0000-bbbb  1d ago  add a README       no answer      4 msgs    950 tok      ?",
        "019a0000-cccc  2d ago  port the tests     interrupted    4 msgs    950 tok      ?",
      ].join("\n"),
    );
  });

  test("id prefixes are the creation millisecond, longer where needed to tell two sessions apart", () => {
    const ids = ["019a0000-aaaa-7000-8000-000000000001", "019a0000-aaaa-7001-8000-000000000002", "019b1111-0000-7000-8000-000000000003"];
    const prefixes = uniquePrefixes(ids);
    expect(ids.map((id) => prefixes.get(id))).toEqual(["019a0000-aaaa-7000", "019a0000-aaaa-7001", "019b1111-0000"]);
    // Shown prefixes stay unique against sessions listed beyond the first 15.
    const rows = sessionsTable(ids.map((id, i) => meta(id, 20 - i, "t", 1, 0)), now, 1).split("\n");
    expect(rows[1]).toStartWith("019a0000-aaaa-7000 ");
  });

  test("only the newest 15 are shown, with a pointer to the rest", () => {
    const many = Array.from({ length: 20 }, (_, i) => meta(`019a0000-0000-7000-8000-${String(i).padStart(12, "0")}`, i, `t${i}`, 1, 0));
    const lines = sessionsTable(many, now).split("\n");
    expect(lines).toHaveLength(1 + 15 + 1);
    expect(lines.at(-1)).toBe("… and 5 older (shiro sessions lists all)");
  });

  test("ages", () => {
    expect(ageText("2026-01-10T11:59:30Z", now)).toBe("30s ago");
    expect(ageText("2026-01-10T09:00:00Z", now)).toBe("3h ago");
    expect(ageText("2026-01-03T12:00:00Z", now)).toBe("7d ago");
  });

  test("/cost shows tokens and cost, or says why the cost is unknown", () => {
    const u = { inputTokens: 10_000, cachedTokens: 8_000, outputTokens: 500, reasoningTokens: 200 };
    expect(costReport(sessionTotals([{ role: "assistant", model: "gpt-5", usage: u, parts: [] }]))).toBe(
      "tokens: 10,000 in (8,000 cached) · 500 out (200 reasoning)\ncost: $0.0085",
    );
    expect(costReport(sessionTotals([{ role: "assistant", model: "local-llm", usage: u, parts: [] }]))).toBe(
      "tokens: 10,000 in (8,000 cached) · 500 out (200 reasoning)\ncost: unknown (no price for local-llm)",
    );
  });

  test("shiro sessions --json: a stable shape with null for unknown cost, and the last run's state", () => {
    const [entry] = sessionsJson([meta("019a0000-bbbb-7000-8000-000000000002", 1, "t", 5, null, 4, "incomplete")]);
    expect(entry).toEqual({
      id: "019a0000-bbbb-7000-8000-000000000002",
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-10T11:59:00.000Z",
      cwd: "/p",
      model: "gpt-5",
      title: "t",
      messages: 4,
      tokens: { input: 5, cached: 0, output: 0, reasoning: 7 },
      costUsd: null,
      state: "incomplete",
    });
  });
});
