/**
 * `--ephemeral` through the binary: a run that reads, runs commands and writes the project leaves
 * $SHIRO_HOME exactly as it was — every file's bytes, mode and time, and every folder's — while the
 * same run without it saves its session and its notes. Memory is read, but no tool that writes it is offered.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { note, writeNotes } from "../../support/memory-fixtures.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const NOTE = "the build writes out.txt";
const work = sequenceModel(
  [
    { name: "read_file", arguments: { path: "notes.txt" } },
    { name: "bash", arguments: { command: "echo built > out.txt" } },
    { name: "write_file", arguments: { path: "report.md", content: "# done\n" } },
  ],
  "Built it and wrote report.md.",
);
/** Does the work, and notes what it learned whenever it is given a tool to do so. */
const model: ScriptedModel = (req) =>
  req.tools.some((t: { name: string }) => t.name === "remember") && !JSON.stringify(req.input).includes("Remembered")
    ? sequenceModel([{ name: "remember", arguments: { kind: "fact", text: "out.txt comes from the build" } }], "")(req)
    : work(req);

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ defaultModel: model });
});
afterAll(() => server.stop());

/**
 * `dir` and every entry under it: what a write of any kind would change (content, mode, size, times —
 * a folder's times change even when a file is made and removed again, a lock say).
 */
function sweep(dir: string, at = "."): Record<string, string> {
  const s = lstatSync(join(dir, at));
  const out: Record<string, string> = { [at]: `${s.mode} ${s.size} ${s.mtimeMs} ${s.ctimeMs}${s.isFile() ? ` ${readFileSync(join(dir, at), "base64")}` : ""}` };
  if (s.isDirectory()) for (const name of readdirSync(join(dir, at))) Object.assign(out, sweep(dir, join(at, name)));
  return out;
}

function used(): { home: string; cwd: string } {
  const home = tempDir("eph-home");
  const cwd = tempDir("eph-proj");
  writeFileSync(join(cwd, "notes.txt"), "build: echo built > out.txt\n");
  writeFileSync(join(home, "config.json"), JSON.stringify({ permissions: [{ decision: "allow", tool: "read_file", pattern: "**" }] }));
  writeNotes(home, cwd, [note("n1", "fact", NOTE, 2)]);
  return { home, cwd };
}

const job = (args: string[], p: { home: string; cwd: string }) =>
  runShiro(["-p", "--yolo", ...args, "build it and report"], { cwd: p.cwd, home: p.home, env: { OPENAI_BASE_URL: server.url } });

describe("--ephemeral", () => {
  test("a home used before (config, notes, a saved session and its index) is left exactly as it was", async () => {
    const p = used();
    expect((await job([], p)).code).toBe(0); // an earlier, saved run: sessions/ and its index exist now
    const before = sweep(p.home);
    expect(Object.keys(before).some((path) => path.startsWith("sessions/index/"))).toBe(true);

    const first = server.requests.length;
    const r = await job(["--ephemeral", "--json"], p);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim().split("\n").at(-1)!)).toMatchObject({ status: "done", text: "Built it and wrote report.md." });
    expect(sweep(p.home)).toEqual(before);
    // It did its work: the project changed, the notes were read, and nothing that writes them was offered.
    expect(readFileSync(join(p.cwd, "report.md"), "utf8")).toBe("# done\n");
    const requests = server.requests.slice(first);
    expect(requests).toHaveLength(4);
    for (const q of requests) {
      expect(q.body.instructions).toContain(NOTE);
      expect(q.body.tools.map((t: { name: string }) => t.name)).not.toContainAnyValues(["remember", "recall", "forget"]);
    }
  });

  test("the same run without it changes the home (the sweep sees a write), and -c cannot continue an ephemeral run", async () => {
    const p = used();
    const before = sweep(p.home);
    expect((await job([], p)).code).toBe(0);
    const after = sweep(p.home);
    expect(Object.keys(after).filter((path) => path.startsWith("sessions/")).length).toBeGreaterThan(0);
    expect(after).not.toEqual(before);

    const fresh = used();
    expect((await job(["--ephemeral"], fresh)).code).toBe(0);
    const again = await runShiro(["-p", "-c", "go on"], { cwd: fresh.cwd, home: fresh.home, env: { OPENAI_BASE_URL: server.url } });
    expect([again.code, again.stderr]).toEqual([2, `shiro: no saved session for ${fresh.cwd}; start one without -c\n`]);
    const both = await job(["--ephemeral", "-c"], fresh);
    expect([both.code, both.stderr]).toEqual([2, "shiro: --ephemeral starts a session that is never saved, so it cannot continue one: leave out -c/-r (or --ephemeral)\n"]);
  });
});
