/**
 * Issue 21, "resuming is about as quick as starting", through the binary: a run leaves its long
 * history's wire measures beside the log (`<id>.measures`), and the next resume of that log takes
 * them instead of serialising every old message again. What it sends is byte for byte what a resume
 * without the file sends — with the file as left, damaged, or stale (the log no longer what was
 * measured) — and the file is never mistaken for a session.
 */
import { afterAll, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseLog } from "../../../src/session/session-log.ts";
import { hashOfLog } from "../../../src/store/log-hash.ts";
import { measuresOf, readMeasureFile, writeMeasures } from "../../../src/store/measure-cache.ts";
import { readingModel, readingProject } from "../../support/long-job.ts";
import { writeLongSession } from "../../support/long-session.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer } from "../../support/strict-server.ts";

// 130 dependent reads in one new session: 262 messages, enough for the file.
const server = await startStrictServer({ models: { "gpt-5-reader": readingModel("r", 130) } });
const home = tempDir("measures-home");
const cwd = tempDir("measures-proj");
const pristine = tempDir("measures-pristine");
afterAll(async () => {
  await server.stop();
  for (const dir of [home, cwd, pristine]) rmSync(dir, { recursive: true, force: true });
});

const sessions = join(home, "sessions");
// 80 turns, 320 messages: long enough for a file; compacted from 20k tokens on, so every size counts.
const id = await writeLongSession(home, cwd, 80);
writeFileSync(join(home, "config.json"), JSON.stringify({ compactAt: 20_000 }));
cpSync(sessions, pristine, { recursive: true });
const log = join(sessions, `${id}.jsonl`);
const measures = join(sessions, `${id}.measures`);

/** The saved session as it was before any resume, with `file` as its measures (none: no file). */
function restore(file?: Uint8Array) {
  rmSync(sessions, { recursive: true, force: true });
  cpSync(pristine, sessions, { recursive: true });
  if (file) writeFileSync(measures, file);
}

/** `-c -p "go on"`: the first request's bytes. */
async function goOn(...flags: string[]): Promise<string> {
  const before = server.requests.length;
  const r = await runShiro(["-c", "-p", ...flags, "go on"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
  expect(r.stderr).not.toContain("internal error");
  expect(r.code).toBe(0);
  return server.requests[before]!.raw;
}

test("a resume sends the same bytes with the measures a run left, with them damaged, and with them stale; the file is no session", async () => {
  restore();
  const measured = await goOn();
  expect(measured).toContain(" elided: "); // compacted: the sizes decided what was sent
  expect(existsSync(measures)).toBe(true);
  const left = new Uint8Array(readFileSync(measures));

  restore(left);
  expect(await goOn()).toBe(measured);
  restore(left);
  const listed = await runShiro(["sessions", "--json"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
  expect((JSON.parse(listed.stdout) as { id: string }[]).map((s) => s.id)).toEqual([id]);

  // A number changed (a bad disk), or the file cut short: measured again.
  restore(Uint8Array.from(left, (b, i) => (i === left.length - 9 ? b ^ 4 : b)));
  expect(await goOn()).toBe(measured);
  restore(left.subarray(0, left.length - 40));
  expect(await goOn()).toBe(measured);

  // Stale: the log is no longer what was measured (its last turn gone, or a line changed at its start).
  const lines = readFileSync(join(pristine, `${id}.jsonl`), "utf8").split("\n");
  const shorter = `${lines.slice(0, -9).join("\n")}\n`;
  const edited = lines.map((l, i) => (i === 2 ? l.replace("step 0:", "step 0;") : l)).join("\n");
  for (const text of [shorter, edited]) {
    restore();
    writeFileSync(log, text);
    const withoutFile = await goOn();
    expect(withoutFile).not.toBe(measured);
    restore(left);
    writeFileSync(log, text);
    expect(await goOn()).toBe(withoutFile);
  }

  // Nothing else is left beside the log: no temp file of the measures' write.
  expect(readdirSync(sessions).filter((n) => n !== "index" && !n.startsWith(id))).toEqual([]);
}, 120_000);

test("a resume that drops the same old steps takes their region from the file: its items as the last run sent them", async () => {
  // Compacted from 5k tokens on: old steps are dropped behind notes.
  const dropping = ["--compact-at", "5000"];
  restore();
  const measured = await goOn(...dropping);
  expect(measured.includes("left out of this request")).toBe(true);
  expect(measured.includes("Summarise the coding session")).toBe(false);
  // The file as left, with its notes' words changed: a resume that takes the region from it sends them so.
  const left = readFileSync(measures);
  const header = JSON.parse(left.subarray(0, left.indexOf(0x0a)).toString());
  const log = readFileSync(join(pristine, `${id}.jsonl`));
  const stored = measuresOf(readMeasureFile(measures, header.build)!, { events: parseLog(log.toString()).events.length })!;
  const region = stored.region()!;
  restore();
  const items = Buffer.from(Buffer.from(stored.regionItems()!).toString().replaceAll("left out of this request", "LEFT OUT of this request"));
  writeMeasures(measures, header.build, header, { model: stored.model, from: stored.from, flat: Array.from(stored.flat), texts: stored.texts()!, region: { ...region, items } });
  const forged = await goOn(...dropping);
  expect(forged.includes("LEFT OUT of this request")).toBe(true);
  expect(forged.replaceAll("LEFT OUT of this request", "left out of this request")).toBe(measured);
  // As left, they give what measuring gives.
  restore(left);
  expect((await goOn(...dropping)) === measured).toBe(true);
}, 60_000);

test("a new session's run leaves the measures of its whole log, and its first resume sends the same bytes with them as without", async () => {
  const project = readingProject("r", 130, 300);
  const own = tempDir("measures-new-home");
  try {
    const env = { OPENAI_BASE_URL: server.url };
    const first = await runShiro(["-p", "--yolo", "--max-steps", "200", "-m", "gpt-5-reader", "Read r0.txt to r129.txt one by one."], { cwd: project, home: own, env });
    expect(first.code).toBe(0);
    const dir = join(own, "sessions");
    const [log] = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
    const file = join(dir, log!.replace(/\.jsonl$/, ".measures"));
    expect(existsSync(file)).toBe(true);
    const kept = { log: readFileSync(join(dir, log!)), file: readFileSync(file) };
    // It holds for the log as the run left it: the same text, every message of it measured.
    const text = kept.log.toString();
    const build = JSON.parse(kept.file.subarray(0, kept.file.indexOf(0x0a)).toString()).build;
    const holds = readMeasureFile(file, build);
    expect(holds && [holds.bytes, holds.hash]).toEqual([kept.log.length, hashOfLog(kept.log)]);
    expect(holds && measuresOf(holds, { events: parseLog(text).events.length })?.offsets.length).toBeGreaterThanOrEqual(256);
    const resume = async (withFile: boolean) => {
      writeFileSync(join(dir, log!), kept.log);
      rmSync(file, { force: true });
      if (withFile) writeFileSync(file, kept.file);
      const before = server.requests.length;
      // Compacted from 5k tokens on, so every size counts; one request is all that is compared.
      await runShiro(["-c", "-p", "--yolo", "--max-steps", "1", "-m", "gpt-5-reader", "--compact-at", "5000", "go on"], { cwd: project, home: own, env });
      return server.requests[before]!.raw;
    };
    const sent = await resume(true);
    expect(sent).toMatch(/ elided: |left out of this request/); // compacted: the sizes decided what was sent
    expect(sent).toBe(await resume(false));
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(own, { recursive: true, force: true });
  }
}, 120_000);
