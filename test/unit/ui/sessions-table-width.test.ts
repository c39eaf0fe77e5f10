import { expect, test } from "bun:test";
import { sessionsTable } from "../../../src/ui/sessions-table.ts";
import type { SessionMeta } from "../../../src/store/session-store.ts";

const now = new Date("2026-01-10T12:00:00Z");
const meta = (id: string, title: string): SessionMeta => ({
  id,
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: new Date(now.getTime() - 180_000).toISOString(),
  cwd: "/p",
  model: "gpt-5",
  title,
  messageCount: 4,
  usage: { inputTokens: 950, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0 },
  costUsd: 0.0421,
  state: "answered",
});
const sessions = [
  meta("019a0000-aaaa-7000-8000-000000000001", "refactor the payment module so that every provider shares one retry policy"),
  meta("019a0000-bbbb-7000-8000-000000000002", "add a README"),
];

test("on an 80-column terminal a long title is clipped so every row stays on one line", () => {
  const lines = sessionsTable(sessions, now, 15, 80).split("\n");
  for (const line of lines) expect(line.length).toBeLessThan(80);
  expect(lines[1]).toMatch(/^019a0000-aaaa {2}3m ago {2}refactor the .*… {2}answered +4 msgs +950 tok +\$0\.04$/);
  expect(lines[2]).toContain("  add a README ");
});

test("without a width (a pipe) titles are whole; a very narrow terminal still shows some of each title", () => {
  expect(sessionsTable(sessions, now, 15)).toContain("every provider shares one retry policy");
  const narrow = sessionsTable(sessions, now, 15, 40).split("\n");
  // The title keeps its minimum; the columns that no longer fit are cut at the edge, never wrapped.
  expect(narrow[1]).toBe("019a0000-aaaa  3m ago  refactor th…  a…");
  for (const line of narrow) expect(line.length).toBeLessThan(40);
});

test("one message reads '1 msg'; a session that cost nothing shows $0, not $0.0000", () => {
  const empty = { ...meta("019a0000-cccc-7000-8000-000000000003", "hi"), messageCount: 1, costUsd: 0 };
  const row = sessionsTable([empty], now).split("\n")[1]!;
  expect(row).toMatch(/ 1 msg +950 tok +\$0$/);
});
