/**
 * Issue 21, "read the log once, lazily past what the next request needs": a resume takes the state
 * of a long log's lines from the snapshot the last run kept beside it (`<id>.state`) and folds only
 * the lines after it. Whatever the log and wherever the snapshot stands, what the resume reads is
 * what folding the whole log gives; a snapshot that does not surely hold is not used.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "bun:jsc";
import { reduceSession } from "../../../src/session/reduce-session.ts";
import { parseLog } from "../../../src/session/session-log.ts";
import { readSessionLog } from "../../../src/store/session-files.ts";
import { hashOfLog } from "../../../src/store/log-hash.ts";
import { readStateFile, stateOf, statePath, writeStateSnapshot } from "../../../src/store/state-snapshot.ts";
import { prng } from "../../support/random-history.ts";
import { logText, randomLog } from "../../support/random-log.ts";
import { tempDir } from "../../support/run-shiro.ts";

const dir = tempDir("state-snapshot");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BUILD = "build-a";
const ID = "01a23590-d8bd-7554-a63c-bd192f91f8de";
const log = join(dir, `${ID}.jsonl`);

/** The snapshot beside `log` as a resume takes it: whole, this build's, and for the very first bytes of the log. */
function snapshotOf(bytes: Uint8Array) {
  const file = readStateFile(statePath(log), BUILD);
  return file && file.bytes <= bytes.length && file.hash === hashOfLog(bytes.subarray(0, file.bytes)) ? stateOf(file) : undefined;
}

/** The log as its first `k` events, with the snapshot of their state written beside it, then the rest of the events appended. */
function logWithSnapshot(events: ReturnType<typeof randomLog>, k: number) {
  writeFileSync(log, logText(events.slice(0, k)));
  writeStateSnapshot(log, BUILD, reduceSession(events.slice(0, k)));
  writeFileSync(log, logText(events));
}

test("a resume from a snapshot reads what folding the whole log gives, wherever the snapshot stands (80 random logs)", async () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= 80 && failures.length < 3; seed++) {
    const rng = prng(seed);
    const events = randomLog(rng, rng.int(1, 40));
    const k = rng.chance(0.3) ? events.length : rng.int(1, events.length);
    logWithSnapshot(events, k);
    const whole = await readSessionLog(dir, ID);
    const resumed = await readSessionLog(dir, ID, { measuresBuild: BUILD });
    if (!whole.ok || !resumed.ok) {
      failures.push(`seed ${seed}: not read`);
      continue;
    }
    // Used, and the lines after it folded on top: the same state, the same events when asked for.
    if (resumed.snapshot !== Buffer.byteLength(logText(events.slice(0, k)))) failures.push(`seed ${seed}: the snapshot was not used`);
    if (!Bun.deepEquals(resumed.state, whole.state, true)) failures.push(`seed ${seed}: the state`);
    if (!Bun.deepEquals(resumed.state, reduceSession(events), true)) failures.push(`seed ${seed}: the state is not the fold`);
    if (!Bun.deepEquals(resumed.events, events, true)) failures.push(`seed ${seed}: the events`);
  }
  expect(failures).toEqual([]);
});

test("after a snapshot, a damaged line or a torn last line is told as in the whole log: its line number, the bytes before it", async () => {
  const events = randomLog(prng(3), 30);
  const k = Math.floor(events.length / 2);
  const lines = logText(events).split("\n");
  const cases: [string, string][] = [
    ["a line that is not JSON", [...lines.slice(0, k + 3), "{not json", ...lines.slice(k + 3)].join("\n")],
    ["a torn last line", `${lines.slice(0, -1).join("\n")}\n{"type":"user","te`],
  ];
  for (const [what, text] of cases) {
    writeFileSync(log, logText(events.slice(0, k)));
    writeStateSnapshot(log, BUILD, reduceSession(events.slice(0, k)));
    writeFileSync(log, text);
    const whole = await readSessionLog(dir, ID);
    const resumed = await readSessionLog(dir, ID, { measuresBuild: BUILD });
    expect(whole.ok && resumed.ok).toBe(true);
    if (!whole.ok || !resumed.ok) continue;
    expect([what, resumed.snapshot !== undefined]).toEqual([what, true]);
    expect([what, resumed.damaged, resumed.goodBytes, resumed.warnings]).toEqual([what, whole.damaged, whole.goodBytes, whole.warnings]);
    expect([what, Bun.deepEquals(resumed.state, whole.state, true), resumed.events.length]).toEqual([what, true, whole.events.length]);
  }
});

test("a snapshot that does not surely hold is not used, and the log is read as it is: another build, a changed byte before it, a shorter log, a damaged file", async () => {
  const events = randomLog(prng(9), 25);
  const k = events.length - 5;
  const fold = reduceSession(events);
  const read = async (build = BUILD) => {
    const r = await readSessionLog(dir, ID, { measuresBuild: build });
    return r.ok ? { used: r.snapshot !== undefined, same: Bun.deepEquals(r.state, reduceSession(parseLog(readFileSync(log, "utf8")).events), true) } : undefined;
  };
  logWithSnapshot(events, k);
  expect(await read()).toEqual({ used: true, same: true });
  const file = readFileSync(statePath(log));
  const cut = file.indexOf(0x0a);
  const header = JSON.parse(file.subarray(0, cut).toString());
  // The state in the file told otherwise, its header made to match: only the bytes it stands for keep it from being used.
  const forged = deserialize(file.subarray(cut + 1)) as typeof fold;
  forged.model = "forged";
  const forgedBody = serialize(forged, { binaryType: "nodebuffer" });
  const forge = (edit: Record<string, unknown>) =>
    writeFileSync(statePath(log), Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, check: Bun.hash(forgedBody).toString(36), ...edit })}\n`), forgedBody]));
  forge({});
  expect((await readSessionLog(dir, ID, { measuresBuild: BUILD }).then((r) => r.ok && r.state.model))).toBe("forged"); // it is what is used
  const unused: [string, () => void | Promise<void>][] = [
    ["another build", () => forge({ build: "build-b" })],
    ["a changed byte in the lines it stands for", () => (forge({}), writeFileSync(log, logText(events).replace('"type":"user","text":"', '"type":"user","text":"!')))],
    ["a log shorter than the lines it stands for", () => (forge({}), writeFileSync(log, logText(events.slice(0, k - 1))))],
    ["its state not what its check says", () => writeFileSync(statePath(log), Buffer.concat([file.subarray(0, cut + 1), forgedBody]))],
    ["cut short", () => writeFileSync(statePath(log), file.subarray(0, file.length - 7))],
    ["its header not JSON", () => writeFileSync(statePath(log), Buffer.concat([Buffer.from("{not json\n"), file.subarray(cut + 1)]))],
    ["empty", () => writeFileSync(statePath(log), "")],
  ];
  for (const [what, damage] of unused) {
    writeFileSync(log, logText(events));
    await damage();
    expect([what, await read()]).toEqual([what, { used: false, same: true }]);
    expect([what, snapshotOf(readFileSync(log))]).toEqual([what, undefined]);
  }
});

test("no snapshot is kept of a log that is not exactly the state's lines", () => {
  const events = randomLog(prng(4), 10);
  mkdirSync(dir, { recursive: true });
  rmSync(statePath(log), { force: true });
  writeFileSync(log, logText(events));
  writeStateSnapshot(log, BUILD, reduceSession(events.slice(0, -1)));
  expect(() => readFileSync(statePath(log))).toThrow();
  writeStateSnapshot(log, BUILD, reduceSession(events));
  expect(snapshotOf(readFileSync(log))?.events).toBe(events.length);
});
