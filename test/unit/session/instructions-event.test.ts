import { expect, test } from "bun:test";
import { reduceSession, SessionLogError } from "../../../src/session/reduce-session.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";

test("the reducer keeps each file once, in order; a second event for one path is an impossible log", () => {
  const at = "2026-01-01T00:00:00.000Z";
  const head: SessionEvent = { type: "session", v: 2, id: "s", at, cwd: "/repo", model: "m" };
  const api: SessionEvent = { type: "instructions", path: "packages/api/AGENTS.md", text: "use zod", bytes: 8, at };
  const web: SessionEvent = { type: "instructions", path: "packages/web/CLAUDE.md", text: "", bytes: 9, cut: true, at };
  expect(reduceSession([head, api, web]).instructionFiles).toEqual([
    { path: "packages/api/AGENTS.md", text: "use zod", bytes: 8 },
    { path: "packages/web/CLAUDE.md", text: "", bytes: 9, cut: true },
  ]);
  expect(() => reduceSession([head, api, api])).toThrow(new SessionLogError(3, "instructions from packages/api/AGENTS.md a second time"));
});
