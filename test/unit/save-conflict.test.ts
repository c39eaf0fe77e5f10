import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Session } from "../../src/store/session-file.ts";
import { saveOrFork } from "../../src/store/save-or-fork.ts";
import { createSessionStore, type SessionStore } from "../../src/store/session-store.ts";

// Two copies of one session, as two `shiro -c` processes would each load it.
let dir: string;
let store: SessionStore;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), "shiro-conflict-")), "sessions");
  store = createSessionStore(dir);
});
afterEach(() => rmSync(join(dir, ".."), { recursive: true, force: true }));

const fileOf = (id: string) => join(dir, `${id}.json`);
const userTexts = (s: Session) => s.messages.flatMap((m) => (m.role === "user" ? [m.text] : []));

async function loaded(id: string): Promise<Session> {
  const result = await store.load(id);
  if (!result.ok) throw new Error(result.error.message);
  return result.session;
}

async function twoCopies(): Promise<[Session, Session]> {
  const original = store.create({ cwd: "/proj", model: "gpt-5" });
  original.messages.push({ role: "user", text: "first" });
  expect(await store.save(original)).toEqual({ ok: true });
  return [await loaded(original.id), await loaded(original.id)];
}

describe("two writers of one session", () => {
  test("the second save of a stale copy is refused and the other writer's file stays as written", async () => {
    const [a, b] = await twoCopies();
    a.messages.push({ role: "user", text: "from a" });
    expect(await store.save(a)).toEqual({ ok: true });
    const written = readFileSync(fileOf(a.id), "utf8");

    b.messages.push({ role: "user", text: "from b" });
    const refused = await store.save(b);
    expect(refused).toEqual({
      ok: false,
      error: { kind: "conflict", id: a.id, path: fileOf(a.id), message: `session ${a.id} was changed by another shiro` },
    });
    expect(readFileSync(fileOf(a.id), "utf8")).toBe(written);
    // The writer that stayed in step keeps saving to its file.
    a.messages.push({ role: "user", text: "a again" });
    expect(await store.save(a)).toEqual({ ok: true });
    expect(userTexts(await loaded(a.id))).toEqual(["first", "from a", "a again"]);
  });

  test("saveOrFork continues the stale copy under a new id: both turns are on disk, both files load", async () => {
    const [a, b] = await twoCopies();
    const originalId = a.id;
    a.messages.push({ role: "user", text: "from a" });
    expect(await saveOrFork(store, a)).toEqual({});
    b.messages.push({ role: "user", text: "from b" });

    const { forkedFrom } = await saveOrFork(store, b);
    expect(forkedFrom?.id).toBe(originalId);
    expect(b.id).not.toBe(originalId); // renamed in place: whoever holds this object now writes the fork
    expect(userTexts(await loaded(originalId))).toEqual(["first", "from a"]);
    expect(userTexts(await loaded(b.id))).toEqual(["first", "from b"]);

    // Later saves of the fork are ordinary ones: no second fork, no third file.
    b.messages.push({ role: "user", text: "b again" });
    expect(await saveOrFork(store, b)).toEqual({});
    expect(userTexts(await loaded(b.id))).toEqual(["first", "from b", "b again"]);
    expect(readdirSync(dir).filter((n) => n.endsWith(".json")).sort()).toEqual([`${originalId}.json`, `${b.id}.json`].sort());
    expect(readdirSync(dir).filter((n) => !n.endsWith(".json"))).toEqual([]); // no lock or temp file left
  });

  test("a new session whose id already has a file it never saw does not overwrite it", async () => {
    const [existing] = await twoCopies();
    const stranger = { ...store.create({ cwd: "/other", model: "gpt-5" }), id: existing.id };
    stranger.messages.push({ role: "user", text: "stranger" });
    expect((await store.save(stranger)).ok).toBe(false);
    expect(userTexts(await loaded(existing.id))).toEqual(["first"]);
  });

  test("a file that does not parse is kept for inspection; the copy is refused with the reason", async () => {
    const [a] = await twoCopies();
    writeFileSync(fileOf(a.id), "{ not json");
    a.messages.push({ role: "user", text: "more" });
    const refused = await store.save(a);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toStartWith(`session ${a.id} could not be read back before saving (`);
    expect(readFileSync(fileOf(a.id), "utf8")).toBe("{ not json");
  });

  test("a file deleted meanwhile is written again; a file from before revisions were counted saves normally", async () => {
    const [a] = await twoCopies();
    unlinkSync(fileOf(a.id));
    expect(await store.save(a)).toEqual({ ok: true });
    expect(existsSync(fileOf(a.id))).toBe(true);

    const old = JSON.parse(readFileSync(fileOf(a.id), "utf8")) as Record<string, unknown>;
    delete old.revision;
    writeFileSync(fileOf(a.id), JSON.stringify(old));
    const reloaded = await loaded(a.id);
    expect(reloaded.onDisk?.revision).toBe(0);
    reloaded.messages.push({ role: "user", text: "after upgrade" });
    expect(await store.save(reloaded)).toEqual({ ok: true });
    expect(JSON.parse(readFileSync(fileOf(a.id), "utf8")).revision).toBe(1);
  });
});
