import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSessionStore, type SessionStore } from "../../src/store/session-store.ts";
import type { Session } from "../../src/store/session-file.ts";
import { everyKind } from "../support/session-fixtures.ts";

let dir: string;
let store: SessionStore;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "shiro-store-")), "sessions");
  store = createSessionStore(dir);
});
afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

async function saved(cwd: string, messages = everyKind(), model = "gpt-5"): Promise<Session> {
  const s = store.create({ cwd, model });
  s.messages.push(...messages);
  await store.save(s);
  return s;
}

describe("session store", () => {
  test("every message kind, the notebook and the model survive a save and load; file is 0600", async () => {
    const s = store.create({ cwd: "/proj/a", model: "gpt-4.1" });
    s.messages.push(...everyKind());
    s.notebook.todos.push({ content: "fix test", status: "in_progress", note: "export missing" }, { content: "ship", status: "blocked" });
    await store.save(s);

    const path = join(dir, `${s.id}.json`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const loaded = await store.load(s.id);
    expect(loaded).toEqual({ ok: true, session: s });

    const onDisk = JSON.parse(readFileSync(path, "utf8"));
    expect(onDisk.schemaVersion).toBe(1);
    expect(onDisk.title).toBe("fix the failing test in src/app.ts — and explain why it fai…");
    expect(onDisk.title.length).toBe(60);
    expect(onDisk.usage).toEqual({ inputTokens: 1200, cachedTokens: 1000, outputTokens: 300, reasoningTokens: 120 });
    expect(onDisk.costUsd).toBeCloseTo((200 * 1.25 + 1000 * 0.125 + 300 * 10) / 1e6, 12);
    expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/); // uuidv7
  });

  test("a session with an unpriced model records its cost as unknown (null), not 0", async () => {
    const s = await saved("/p", [{ role: "user", text: "hi" }, { role: "assistant", model: "my-local-llm", usage: { inputTokens: 5, cachedTokens: 0, outputTokens: 5, reasoningTokens: 0 }, parts: [] }]);
    const { sessions } = await store.list();
    expect(sessions.map((m) => [m.id, m.costUsd])).toEqual([[s.id, null]]);
  });

  test("corrupt, mismatched and unreadable files are skipped with one warning line each", async () => {
    const good = await saved("/p");
    const bad = (n: number) => `0190${n}000-0000-7000-8000-000000000000`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${bad(1)}.json`), "{ not json");
    writeFileSync(join(dir, `${bad(2)}.json`), JSON.stringify({ schemaVersion: 1, id: bad(2), messages: "nope" }));
    writeFileSync(join(dir, `${bad(3)}.json`), "");
    mkdirSync(join(dir, `${bad(4)}.json`)); // unreadable as a file
    writeFileSync(join(dir, "notes.txt"), "ignored: not a session file");

    const { sessions, warnings } = await store.list();
    expect(sessions.map((s) => s.id)).toEqual([good.id]);
    expect(warnings).toHaveLength(4);
    for (const n of [1, 2, 3, 4]) expect(warnings.filter((w) => w.includes(bad(n)))).toHaveLength(1);
    expect(warnings.every((w) => !w.includes("\n") && w.startsWith("skipping a session file: "))).toBe(true);

    const loaded = await store.load(bad(1));
    expect(loaded.ok ? "" : loaded.error.kind).toBe("corrupt");
    expect(loaded.ok ? "" : loaded.error.message).toContain("is not valid JSON");
    const missing = await store.load("0190ffff-0000-7000-8000-000000000000");
    expect(missing.ok ? "" : missing.error.kind).toBe("missing");
    const traversal = await store.load("../../etc/passwd");
    expect(traversal.ok ? "" : traversal.error.message).toBe('"../../etc/passwd" is not a session id');
  });

  test("a file from a newer shiro is refused by name and version, in load and in list", async () => {
    const s = await saved("/p");
    const path = join(dir, `${s.id}.json`);
    writeFileSync(path, readFileSync(path, "utf8").replace('"schemaVersion":1', '"schemaVersion":2'));
    const loaded = await store.load(s.id);
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? "" : loaded.error).toMatchObject({
      kind: "newer-schema",
      schemaVersion: 2,
      message: `session ${s.id} was written by a newer shiro (schema 2); upgrade shiro to open it`,
    });
    const { sessions, warnings } = await store.list();
    expect(sessions).toEqual([]);
    expect(warnings).toEqual([`skipping a session file: session ${s.id} was written by a newer shiro (schema 2); upgrade shiro to open it`]);
  });

  test("listing reads only the header: a transcript damaged past it still lists, and load says it is corrupt", async () => {
    const s = await saved("/p");
    const path = join(dir, `${s.id}.json`);
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.slice(0, text.indexOf(',"messages":') + 20)); // torn after the header
    const { sessions, warnings } = await store.list();
    expect(warnings).toEqual([]);
    expect(sessions[0]).toMatchObject({ id: s.id, messageCount: 6, title: expect.stringContaining("fix the failing") });
    const loaded = await store.load(s.id);
    expect(loaded.ok ? "" : loaded.error.kind).toBe("corrupt");
  });

  test("a valid file with its keys in another order (hand-edited) is still listed, by a full read", async () => {
    const s = await saved("/p");
    const path = join(dir, `${s.id}.json`);
    const { messages, ...rest } = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(path, JSON.stringify({ messages, ...rest }, null, 2));
    const { sessions, warnings } = await store.list();
    expect(warnings).toEqual([]);
    expect(sessions.map((m) => m.id)).toEqual([s.id]);
  });

  test("resolvePrefix: full id, unique prefix, ambiguous lists the matches, none", async () => {
    const withId = async (id: string) => {
      const s = { ...store.create({ cwd: "/p", model: "gpt-5" }), id };
      s.messages.push({ role: "user", text: id });
      await store.save(s);
    };
    const [a, b, c] = ["019a0000-aaaa-7000-8000-000000000001", "019a0000-aaab-7000-8000-000000000002", "019b0000-0000-7000-8000-000000000003"];
    for (const id of [a, b, c]) await withId(id);
    expect(await store.resolvePrefix(a)).toEqual({ kind: "one", id: a });
    expect(await store.resolvePrefix("019A0000-AAAB")).toEqual({ kind: "one", id: b });
    expect(await store.resolvePrefix("019b")).toEqual({ kind: "one", id: c });
    const ambiguous = await store.resolvePrefix("019a0000");
    expect(ambiguous.kind).toBe("ambiguous");
    if (ambiguous.kind === "ambiguous") expect(ambiguous.matches.map((m) => [m.id, m.title]).sort()).toEqual([[a, a], [b, b]]);
    expect(await store.resolvePrefix("ffffffff")).toEqual({ kind: "none", prefix: "ffffffff" });
    expect(await store.resolvePrefix("")).toEqual({ kind: "none", prefix: "" });
  });

  test("newestFor picks the newest session of this folder, not of another", async () => {
    const olderHere = await saved("/work/app");
    await Bun.sleep(5);
    const newerHere = await saved("/work/app/");
    await Bun.sleep(5);
    await saved("/work/other");
    await Bun.sleep(5);
    await store.save(olderHere); // touching it makes it the newest here
    expect((await store.newestFor("/work/app")).session?.id).toBe(olderHere.id);
    await Bun.sleep(5);
    await store.save(newerHere);
    expect((await store.newestFor("/work/app")).session?.id).toBe(newerHere.id);
    expect((await store.newestFor("/nowhere")).session).toBeUndefined();
  });

  test("an empty or missing store lists nothing and does not fail", async () => {
    expect(await store.list()).toEqual({ sessions: [], warnings: [] });
    expect((await store.newestFor("/p")).session).toBeUndefined();
  });
});
