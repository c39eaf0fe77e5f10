import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSessionStore } from "../../src/store/session-store.ts";

const worker = join(import.meta.dir, "../support/save-loop.ts");

test("two processes saving their own and the same session in one folder never leave a file that fails to parse", async () => {
  const root = mkdtempSync(join(tmpdir(), "shiro-concurrent-"));
  try {
    const dir = join(root, "sessions");
    const store = createSessionStore(dir);
    const sharedId = Bun.randomUUIDv7();
    const rounds = 120;
    const spawn = (name: string) =>
      Bun.spawn(["bun", worker, dir, sharedId, String(rounds), name], { stdout: "pipe", stderr: "pipe", env: { ...process.env, SHIRO_HOME: root } });
    const procs = [spawn("a"), spawn("b")];

    // Read while they write: every file seen must parse whole.
    let reads = 0;
    const problems: string[] = [];
    const running = () => procs.some((p) => p.exitCode === null);
    while (running()) {
      const { sessions, warnings } = await store.list();
      problems.push(...warnings);
      for (const s of sessions) {
        const loaded = await store.load(s.id);
        reads++;
        if (!loaded.ok) problems.push(loaded.error.message);
      }
    }
    for (const p of procs) {
      expect(await p.exited).toBe(0);
      expect(await new Response(p.stderr).text()).toBe("");
    }
    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(0);

    const ownIds = await Promise.all(procs.map(async (p) => (await new Response(p.stdout).text()).trim()));
    const { sessions, warnings } = await store.list();
    expect(warnings).toEqual([]);
    expect(sessions.map((s) => s.id).sort()).toEqual([...ownIds, sharedId].sort());
    for (const id of ownIds) {
      const loaded = await store.load(id);
      expect(loaded.ok && loaded.session.messages.length).toBe(rounds * 4);
    }
    const shared = await store.load(sharedId);
    expect(shared.ok && shared.session.messages.length).toBe(rounds * 5); // one writer's last save, whole
    expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 30_000);
