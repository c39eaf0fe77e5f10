import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { composeRequest, surelyNeedsSummary, type RequestSpec } from "../../src/context/compose-request.ts";
import { knownMeasures, measuresToStore } from "../../src/context/known-measures.ts";
import { historyFloor } from "../../src/context/overflow-floor.ts";
import { noteLineChars } from "../../src/context/drop-exchanges.ts";
import { createWireLedger, type WireLedger } from "../../src/context/wire-ledger.ts";
import type { Message } from "../../src/session/messages.ts";
import type { SessionEvent } from "../../src/session/session-event.ts";
import { measuresOf, prefixOf, readMeasureFile, writeMeasures } from "../../src/store/measure-cache.ts";
import { prng, randomHistory, type Rng } from "../support/random-history.ts";
import { tempDir } from "../support/run-shiro.ts";

/**
 * A resume takes its history's wire measures from the file an earlier run left beside the log.
 * What is sent must be what measuring gives: with measures that hold, and — whatever is wrong with
 * the file or however the log moved on — by measuring again.
 */
const dir = tempDir("measures");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BUILD = "build-a";
const events = (n: number, ...more: SessionEvent["type"][]) => [...Array.from({ length: n }, () => ({ type: "user" })), ...more.map((type) => ({ type }))] as SessionEvent[];
/** As a resume reads them: the file, checked against the log's text before it is parsed, then against its events. */
async function readMeasures(path: string, build: string, log: { text: string; events: SessionEvent[] }) {
  const file = await readMeasureFile(path, build, log.text);
  return file && measuresOf(file, log.events);
}
const logOf = (text: string, n: number) => ({ text, events: events(n) });

const spec = (rng: Rng, model: string): RequestSpec => {
  const window = rng.int(2_000, 300_000);
  return { model, instructions: "i".repeat(rng.int(0, 5_000)), tools: [], params: { stream: true } as RequestSpec["params"], limits: { threshold: rng.int(300, window), window }, harder: rng.chance(0.1) };
};

/** Measures of `history` written and read back as a resume reads them, for the log `log`. */
async function stored(history: readonly Message[], model: string, path: string, log = logOf("the log as the run opened it\n", 3), flat?: (f: readonly number[]) => number[]) {
  const ledger = createWireLedger();
  ledger.sync(history, model);
  const rows = measuresToStore(ledger, history)!;
  writeMeasures(path, BUILD, prefixOf(log.text, log.events.length), { ...rows, flat: flat ? flat(rows.flat) : rows.flat });
  return readMeasures(path, BUILD, log);
}

/** Every figure of every entry (and what a note of each exchange would take), items included. */
const figuresOf = (ledger: WireLedger) => ({
  entries: ledger.entries.map((e) => {
    const { chars, reasoningChars, bareChars, hasReasoning, resultsSeen, floorChars, firstElided, savings, slots } = e;
    return [chars, reasoningChars, bareChars, hasReasoning, resultsSeen, floorChars, firstElided, savings, slots.map((x) => [x.item, x.chars, x.kind, x.call, x.elided])];
  }),
  notes: ledger.exchanges.map((_, x) => noteLineChars(ledger, x)),
});

const body = (history: readonly Message[], s: RequestSpec, ledger = createWireLedger()) => JSON.stringify(composeRequest(history, s, ledger).body);

test("a ledger from stored measures composes, floors and overflows exactly as a measured one (100 random histories, some growing past what was stored)", async () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= 100 && failures.length < 3; seed++) {
    const rng = prng(seed);
    const history = randomHistory(rng, rng.int(1, 60));
    const model = rng.chance(0.8) ? "gpt-5" : "o3";
    // Opened while the last tool message still had its results coming: those after are measured anew.
    const last = history.at(-1)!;
    const later = last.role === "tool" && rng.chance(0.5) ? last.results.splice(rng.int(0, last.results.length)) : [];
    const measures = await stored(history, model, join(dir, `s${seed}.measures`));
    const opened = [...history];
    if (last.role === "tool") last.results.push(...later);
    if (rng.chance(0.5)) history.push({ role: "user", text: `go on ${seed}` });
    for (let r = 0; r < 3; r++) {
      const s = spec(rng, model);
      const known = createWireLedger(knownMeasures(measures!, opened));
      if (body(history, s, known) !== body(structuredClone(history), s)) failures.push(`seed ${seed}: the body`);
      const fresh = createWireLedger().sync(history, model);
      if (JSON.stringify(historyFloor(known)) !== JSON.stringify(historyFloor(fresh))) failures.push(`seed ${seed}: the floor`);
      if (JSON.stringify(figuresOf(known)) !== JSON.stringify(figuresOf(fresh))) failures.push(`seed ${seed}: the figures`);
      if (JSON.stringify(measuresToStore(known, opened)) !== JSON.stringify(measuresToStore(fresh, opened))) failures.push(`seed ${seed}: stored again`);
      const k2 = createWireLedger(knownMeasures(measures!, opened));
      if (JSON.stringify(surelyNeedsSummary(history, s, k2)) !== JSON.stringify(surelyNeedsSummary(history, s, createWireLedger()))) failures.push(`seed ${seed}: the overflow`);
    }
  }
  expect(failures).toEqual([]);
}, 30_000);

test("stored measures are used — and any that do not surely hold are not: another build or model, a log that did not go on from the text measured, an undo since, a damaged file, other messages", async () => {
  const rng = prng(7);
  const history = randomHistory(rng, 40);
  const s: RequestSpec = { model: "gpt-5", instructions: "", tools: [], params: { stream: true } as RequestSpec["params"], limits: { threshold: 200_000, window: 400_000 }, harder: false };
  const measured = body(structuredClone(history), s);
  // Each message taken as fifty times its size (a record: its length, results seen, characters, …): used, they compact the history.
  const forged = (f: readonly number[]) => {
    const out = [...f];
    for (let o = 0; o < out.length; o += 1 + out[o]!) out[o + 2]! *= 50;
    return out;
  };
  const log = logOf("line one\nline two\n", 2);
  const path = join(dir, "forged.measures");
  const used = await stored(history, "gpt-5", path, log, forged);
  expect(body(history, s, createWireLedger(knownMeasures(used!, history)))).not.toBe(measured);

  const unused: [string, () => Promise<unknown>][] = [
    ["another build", () => readMeasures(path, "build-b", log)],
    ["a changed character in what was measured", () => readMeasures(path, BUILD, { ...log, text: "line one\nline twO\n" })],
    ["a log shorter than what was measured", () => readMeasures(path, BUILD, logOf("line one\n", 1))],
    ["an undo since", () => readMeasures(path, BUILD, { text: "line one\nline two\nundo\n", events: events(2, "undo") })],
    ["no file", () => readMeasures(join(dir, "none.measures"), BUILD, log)],
  ];
  for (const [what, read] of unused) expect([what, await read()]).toEqual([what, undefined]);
  // A log that went on from that text keeps them.
  expect(await readMeasures(path, BUILD, { text: "line one\nline two\nline three\n", events: events(3) })).toBeDefined();

  const file = new Uint8Array(await Bun.file(path).bytes());
  const cut = file.indexOf(0x0a);
  const header = (edit: (line: string) => string) => new Uint8Array([...Buffer.from(edit(Buffer.from(file.subarray(0, cut)).toString())), ...file.subarray(cut)]);
  const damaged: [string, Uint8Array][] = [
    ["a flipped bit in its numbers", Uint8Array.from(file, (b, i) => (i === file.length - 5 ? b ^ 1 : b))],
    ["cut short", file.subarray(0, file.length - 6)],
    ["its header not JSON", header(() => "{not json")],
    ["another version of it", header((h) => h.replace('"v":1', '"v":2'))],
    ["a key it does not know", header((h) => h.replace('{"v":1', '{"v":1,"more":0'))],
    ["empty", new Uint8Array()],
  ];
  for (const [what, bytes] of damaged) {
    await Bun.write(path, bytes);
    expect([what, await readMeasures(path, BUILD, log)]).toEqual([what, undefined]);
  }

  // Held, but for other messages or another model: each message is measured.
  const again = await stored(history, "gpt-5", path, log, forged);
  expect(body(history, s, createWireLedger(knownMeasures(again!, structuredClone(history))))).toBe(measured);
  expect(body(history, { ...s, model: "o3" }, createWireLedger(knownMeasures(again!, history)))).toBe(body(structuredClone(history), { ...s, model: "o3" }));
});
