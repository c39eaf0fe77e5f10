import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStore } from "../../../src/store/memory-store.ts";

const script = join(import.meta.dir, "../../support/remember-many.ts");

test("two processes remembering 50 notes each at the same moment leave 100 notes on disk", async () => {
  const home = mkdtempSync(join(tmpdir(), "shiro-mem-e2e-"));
  const project = mkdtempSync(join(tmpdir(), "shiro-proj-"));
  const startAt = String(Date.now() + 600);
  const spawnOne = (prefix: string) =>
    Bun.spawn(["bun", script, home, project, prefix, "50", startAt], { stdout: "pipe", stderr: "pipe", env: { ...process.env, SHIRO_HOME: home } });
  const procs = [spawnOne("alpha"), spawnOne("beta")];
  const codes = await Promise.all(procs.map((p) => p.exited));
  const outputs = await Promise.all(procs.map((p) => new Response(p.stdout).text()));
  const errors = await Promise.all(procs.map((p) => new Response(p.stderr).text()));
  expect({ codes, errors }).toEqual({ codes: [0, 0], errors: ["", ""] });
  expect(outputs).toEqual(["refused 0\n", "refused 0\n"]);

  const store = createMemoryStore(home, project);
  const entries = await store.list();
  expect(entries).toHaveLength(100);
  const texts = new Set(entries.map((e) => e.text));
  for (let i = 0; i < 50; i++) {
    expect(texts.has(`alpha note number ${i}`)).toBe(true);
    expect(texts.has(`beta note number ${i}`)).toBe(true);
  }
  // Neither a lock nor a temp file is left behind.
  expect(readdirSync(join(home, "memory"))).toEqual([store.path.split("/").at(-1)!]);
}, 30_000);
