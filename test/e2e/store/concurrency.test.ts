import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { sessionIds } from "../../../src/store/session-files.ts";
import { createSessionStore } from "../../../src/store/session-store.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { appendMessages, turn } from "../../support/session-fixtures.ts";

const worker = join(import.meta.dir, "../../support/save-loop.ts");
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("two processes appending to their own sessions and continuing one shared session: every log always reduces, no turn is lost", async () => {
  const root = tempDir("concurrent");
  made.push(root);
  const dir = join(root, "sessions");
  const store = createSessionStore(dir);
  const seed = await store.create({ cwd: "/proj/shared", model: "gpt-5" });
  appendMessages(seed, turn(0));
  seed.close();
  const rounds = 120;
  const spawn = (name: string) =>
    Bun.spawn(["bun", worker, dir, seed.id, String(rounds), name], { stdout: "pipe", stderr: "pipe", env: { ...process.env, SHIRO_HOME: root } });
  const procs = [spawn("a"), spawn("b")];

  // Read while they write: every log seen must reduce (a torn last line is the only damage allowed).
  let reads = 0;
  const problems: string[] = [];
  while (procs.some((p) => p.exitCode === null)) {
    for (const id of await sessionIds(dir)) {
      const read = await store.read(id);
      reads++;
      // A log just created has no complete line yet: not a session yet, and not damage.
      if (!read.ok && read.kind === "corrupt") problems.push(read.message);
    }
  }
  for (const p of procs) {
    expect(await p.exited).toBe(0);
    expect(await new Response(p.stderr).text()).toBe("");
  }
  expect(problems).toEqual([]);
  expect(reads).toBeGreaterThan(0);

  const printed = await Promise.all(procs.map(async (p) => (await new Response(p.stdout).text()).trim().split("\n")));
  for (const [own] of printed) {
    const read = await store.read(own!);
    expect(read.ok && read.state.messages.length).toBe(rounds * 4);
  }
  // One process held the shared session and added its turns to it; the other continued a copy of what
  // was on disk when it opened, and added its own turns after that copy. No turn is lost.
  const sharedIds = printed.map(([, shared]) => shared!);
  expect(new Set(sharedIds).size).toBe(2);
  expect(sharedIds).toContain(seed.id);
  for (const [i, id] of sharedIds.entries()) {
    const read = await store.read(id);
    if (!read.ok) throw new Error(read.message);
    const users = read.state.messages.flatMap((m) => (m.role === "user" ? [m.text] : []));
    const mine = i === 0 ? "a " : "b ";
    expect(users.slice(-rounds).every((t) => t.startsWith(mine))).toBe(true);
    if (id === seed.id) expect(users.length).toBe(1 + rounds);
    else expect(read.state.forkedFrom?.id).toBe(seed.id);
  }
}, 30_000);
