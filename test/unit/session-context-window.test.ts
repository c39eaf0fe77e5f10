import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSessionStore, type SessionStore } from "../../src/store/session-store.ts";
import { everyKind } from "../support/session-fixtures.ts";

let dir: string;
let store: SessionStore;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "shiro-window-")), "sessions");
  store = createSessionStore(dir);
});
afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

describe("a learned context window in the session file", () => {
  test("survives a save and load, written after the transcript so listing is unaffected", async () => {
    const s = store.create({ cwd: "/p", model: "gpt-5" });
    s.messages.push(...everyKind());
    s.contextWindow = { model: "gpt-5", tokens: 17_080 };
    await store.save(s);
    expect(await store.load(s.id)).toEqual({ ok: true, session: s });
    const text = readFileSync(join(dir, `${s.id}.json`), "utf8");
    expect(text.endsWith(',"contextWindow":{"model":"gpt-5","tokens":17080}}')).toBe(true);
    expect((await store.list()).sessions.map((m) => m.id)).toEqual([s.id]);
  });

  test("a session that never overflowed has no such field, and loads without one", async () => {
    const s = store.create({ cwd: "/p", model: "gpt-5" });
    s.messages.push(...everyKind());
    await store.save(s);
    expect(readFileSync(join(dir, `${s.id}.json`), "utf8")).not.toContain("contextWindow");
    const loaded = await store.load(s.id);
    expect(loaded.ok && "contextWindow" in loaded.session).toBe(false);
  });

  test("a bad value is reported as a corrupt file naming the field", async () => {
    const s = store.create({ cwd: "/p", model: "gpt-5" });
    s.messages.push(...everyKind());
    s.contextWindow = { model: "gpt-5", tokens: 1 };
    await store.save(s);
    const path = join(dir, `${s.id}.json`);
    writeFileSync(path, readFileSync(path, "utf8").replace('"tokens":1}', '"tokens":-5}'));
    const loaded = await store.load(s.id);
    expect(loaded.ok ? "" : loaded.error.message).toContain("at contextWindow.tokens");
  });
});
