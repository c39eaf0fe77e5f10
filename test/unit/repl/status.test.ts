import { describe, expect, test } from "bun:test";
import pc from "picocolors";
import { movePick, pickedCommand } from "../../../src/repl/menu-pick.ts";
import { composeArea } from "../../../src/repl/repl-view.ts";
import { nextStatus, startStatus, statusText, type Status } from "../../../src/repl/status-line.ts";
import { clipToWidth, cursorAfter, endOf, rowsOf, widthOf } from "../../../src/ui/cell-layout.ts";
import { renderRecap } from "../../../src/ui/session-recap.ts";
import type { Message } from "../../../src/session/messages.ts";

const text = (s: Status, now: number, columns = 100, queued = 0) => statusText(s, now, { columns, queued });

describe("the status line's text", () => {
  test("thinking, then writing with tokens estimated from what streamed, then the API's count", () => {
    let s = startStatus(1000);
    expect(text(s, 1000)).toBe("⠋ thinking · 0 s · 0 tokens · Esc to interrupt");
    s = nextStatus(s, { type: "text-delta", text: "x".repeat(40) }, 1200);
    expect(text(s, 2500)).toBe("⠴ writing · 1 s · 10 tokens · Esc to interrupt");
    s = nextStatus(s, { type: "message", message: { role: "assistant", model: "m", parts: [], usage: { inputTokens: 5, cachedTokens: 0, outputTokens: 1234, reasoningTokens: 0 } } }, 2600);
    expect(text(s, 2600, 100, 2)).toBe("⠦ writing · 1 s · 1,234 tokens · 2 queued · Esc to interrupt");
  });
  test("a running tool, a retry's countdown (thinking again once it is over), a slash command", () => {
    let s = nextStatus(startStatus(0), { type: "tool-call", callId: "c", name: "bash", arguments: "{}" }, 10);
    expect(text(s, 3000)).toContain("running bash · 3 s");
    // An MCP tool's progress rides along until its result.
    const mcp = nextStatus(nextStatus(startStatus(0), { type: "tool-call", callId: "m", name: "mcp__ev__long", arguments: "{}" }, 0), { type: "tool-progress", callId: "m", text: "3/10: indexing" }, 500);
    expect(text(mcp, 1000)).toContain("running mcp__ev__long (3/10: indexing) · 1 s");
    s = nextStatus(s, { type: "retry", attempt: 2, maxAttempts: 6, delayMs: 2000, reason: "503" }, 3000);
    expect(text(s, 3100)).toContain("retrying in 2 s");
    expect(text(s, 5100)).toContain("thinking");
    expect(text(startStatus(0, { kind: "command", name: "/compact" }), 2000)).toBe("⠋ /compact · 2 s · Esc to cancel");
  });
  test("the agent's mode rides along (plan mode), before the key to press", () => {
    expect(statusText(startStatus(0), 2000, { columns: 100, queued: 1, badge: "plan mode" })).toBe("⠋ thinking · 2 s · 0 tokens · 1 queued · plan mode · Esc to interrupt");
    expect(text(startStatus(0), 2000)).not.toContain("plan");
  });
  test("each running child agent: its name, its step and its output tokens; gone once it ends", () => {
    const usage = { inputTokens: 5, cachedTokens: 0, outputTokens: 1500, reasoningTokens: 0 };
    const ids = { parentCallId: "call_t" };
    let s = nextStatus(startStatus(0), { type: "tool-call", callId: "call_t", name: "task", arguments: "{}" }, 0);
    s = nextStatus(s, { type: "agent-start", agentId: "a1", agent: "reviewer", description: "review", ...ids }, 0);
    s = nextStatus(s, { type: "agent-start", agentId: "a2", agent: "general", description: "search", ...ids }, 0);
    expect(text(s, 1000, 200)).toBe("⠋ running task · 1 s · 0 tokens · reviewer step 1, 0 tokens · general step 1, 0 tokens · Esc to interrupt");
    s = nextStatus(s, { type: "child", agentId: "a1", ...ids, event: { type: "message", message: { role: "assistant", model: "m", parts: [], usage } } }, 1000);
    s = nextStatus(s, { type: "agent-end", agentId: "a2", status: "done", steps: 1, usage, ...ids }, 1000);
    expect(text(s, 1000, 200)).toBe("⠋ running task · 1 s · 0 tokens · reviewer step 2, 1,500 tokens · Esc to interrupt");
  });
  test("clipped to the terminal's width", () => {
    expect(widthOf(text(startStatus(0), 0, 20))).toBeLessThanOrEqual(19);
  });
});

describe("cell layout", () => {
  test("rows and cursor cells as a terminal places them: wide characters, a full row's pending wrap, colour codes", () => {
    expect(endOf("abcd", 4)).toEqual({ row: 0, col: 4 });
    expect(cursorAfter("abcd", 4)).toEqual({ row: 1, col: 0 });
    expect(rowsOf("abc漢", 4)).toBe(2); // the wide character moves whole to the next row
    expect(rowsOf("\x1b[1mab\x1b[22m", 2)).toBe(1);
    expect(widthOf("漢字é")).toBe(5);
    expect(clipToWidth("abcdefgh", 5)).toBe("abcd…");
    expect(clipToWidth("\x1b[2mabcdefgh\x1b[22m", 5)).toBe("\x1b[2mabcd…\x1b[0m");
  });
});

describe("the live area's layout", () => {
  const c = pc.createColors(false);
  const base = { prompt: "› ", choices: [], menu: [], queued: [], columns: 40, c };
  test("queued prompts above the prompt, continuation lines indented, the status line last", () => {
    const area = composeArea({ ...base, draft: { text: "one\ntwo", cursor: 5 }, queued: ["next"], status: "⠋ thinking" });
    expect(area.rows).toEqual(["· queued (1): next", "› one", "  two", "⠋ thinking"]);
    expect(area.cursor).toEqual({ row: 2, before: "  t" });
  });
  test("the slash menu under the prompt, ten rows at most; a question replaces the prompt", () => {
    const menu = Array.from({ length: 12 }, (_, i) => [`/c${i}`, `command ${i}`] as const);
    const area = composeArea({ ...base, draft: { text: "/c", cursor: 2 }, menu });
    expect(area.rows).toHaveLength(11);
    expect(area.rows[1]).toBe("  /c0   command 0");
    expect(area.rows[10]).toBe("  … 3 more");
    const asked = composeArea({ ...base, draft: { text: "draft", cursor: 5 }, question: { text: "allow? ", answer: { text: "why", cursor: 1 }, hint: "a reason" } });
    expect(asked.rows).toEqual(["allow? n why", "  a reason"]);
    expect(asked.cursor).toEqual({ row: 0, before: "allow? n w" });
  });
});

describe("picking from the slash menu", () => {
  const c = pc.createColors(false);
  const base = { prompt: "› ", choices: [], queued: [], columns: 40, c };
  const menu = Array.from({ length: 12 }, (_, i) => [`/c${i}`, `command ${i}`] as const);
  test("the arrows move the pick and wrap at either end", () => {
    expect(movePick(undefined, 3, "down")).toBe(0);
    expect(movePick(undefined, 3, "up")).toBe(2);
    expect(movePick(2, 3, "down")).toBe(0);
    expect(movePick(0, 3, "up")).toBe(2);
    expect(movePick(1, 0, "down")).toBeUndefined();
    expect(pickedCommand("/model [id | --force id]")).toBe("/model");
  });
  test("the picked row is marked and stays in view as the list scrolls", () => {
    const first = composeArea({ ...base, draft: { text: "/c", cursor: 2 }, menu, menuPick: 1 });
    expect(first.rows.slice(1, 3)).toEqual(["  /c0   command 0", "› /c1   command 1"]);
    const last = composeArea({ ...base, draft: { text: "/c", cursor: 2 }, menu, menuPick: 11 });
    expect(last.rows).toHaveLength(11);
    expect(last.rows[1]).toBe("  /c3   command 3");
    expect(last.rows[9]).toBe("› /c11  command 11");
    expect(last.rows[10]).toBe("  … 3 more");
  });
});

describe("the recap of a continued session", () => {
  const usage = undefined;
  const messages: Message[] = [
    { role: "user", text: "first question" },
    { role: "assistant", model: "m", usage, parts: [{ type: "text", text: "first answer" }] },
    { role: "user", text: 'fix the test\n\n<file path="a.ts">\nsecret body\n</file>' },
    { role: "assistant", model: "m", parts: [{ type: "tool-call", callId: "c1", name: "bash", arguments: JSON.stringify({ command: "bun test" }) }] },
    { role: "tool", results: [{ callId: "c1", output: "1 fail", isError: true }] },
    { role: "assistant", model: "m", parts: [{ type: "text", text: Array.from({ length: 9 }, (_, i) => `line ${i}`).join("\n") }] },
  ];
  test("each exchange: the prompt (without attached files), its tools one line each, the answer's first lines", () => {
    expect(renderRecap(messages, { columns: 80, rows: 40 }).split("\n")).toEqual([
      "· where you left off:",
      "› first question",
      "first answer",
      "› fix the test",
      "  ● bash bun test ✗",
      ...Array.from({ length: 6 }, (_, i) => `line ${i}`),
      "… (+3 lines)",
    ]);
  });
  test("older exchanges give way when the screen is short; nothing for a session without a prompt", () => {
    const short = renderRecap(messages, { columns: 80, rows: 6 }).split("\n");
    expect(short[0]).toBe("· where you left off (1 earlier exchange not shown):");
    expect(short).toHaveLength(6);
    expect(renderRecap([], { columns: 80, rows: 10 })).toBe("");
  });
});
