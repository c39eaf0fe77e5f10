import { hashOfLog } from "../../../src/store/log-hash.ts";
import { bodyJson } from "../../../src/wire/body-json.ts";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { composeRequest, surelyNeedsSummary, type RequestSpec } from "../../../src/context/compose-request.ts";
import { knownMeasures, measuresToStore } from "../../../src/context/known-measures.ts";
import { historyFloor } from "../../../src/context/overflow-floor.ts";
import { composedRegion, noteLineChars } from "../../../src/context/drop-exchanges.ts";
import { createWireLedger, type WireLedger } from "../../../src/context/wire-ledger.ts";
import type { Message } from "../../../src/session/messages.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";
import { measuresOf, prefixOf, readMeasureFile, writeMeasures, type MeasuresToStore } from "../../../src/store/measure-cache.ts";
import { prng, randomHistory, type Rng } from "../../support/random-history.ts";
import { tempDir } from "../../support/run-shiro.ts";

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
  // As a resume takes it: whole, this build's, and for a log whose first bytes are those it names.
  const bytes = Buffer.from(log.text);
  const read = readMeasureFile(path, build);
  const file = read && read.bytes <= bytes.length && read.hash === hashOfLog(bytes.subarray(0, read.bytes)) ? read : undefined;
  // What the reducer tells of those events: how many lines, and where the newest undo was.
  const undo = log.events.findLastIndex((e) => e.type === "undo");
  return file && measuresOf(file, { events: log.events.length, ...(undo >= 0 ? { undoneAt: undo + 1 } : {}) });
}
const logOf = (text: string, n: number) => ({ text, events: events(n) });

const spec = (rng: Rng, model: string): RequestSpec => {
  const window = rng.int(2_000, 300_000);
  return { model, instructions: "i".repeat(rng.int(0, 5_000)), tools: [], params: { stream: true } as RequestSpec["params"], limits: { threshold: rng.int(300, window), window }, harder: rng.chance(0.1) };
};

/** Measures of `history` written and read back as a resume reads them, for the log `log` (with the region of a request composed by `spec`, if given). */
async function stored(history: readonly Message[], model: string, path: string, log = logOf("the log as the run opened it\n", 3), flat?: (f: readonly number[]) => number[], opts: { spec?: RequestSpec; edit?: (m: MeasuresToStore) => MeasuresToStore } = {}) {
  const ledger = createWireLedger();
  if (opts.spec) composeRequest(history, opts.spec, ledger);
  else ledger.sync(history, model);
  const rows = measuresToStore(ledger, history, 1, composedRegion(ledger))!;
  const edited = opts.edit ? opts.edit(rows) : rows;
  writeMeasures(path, BUILD, prefixOf(Buffer.from(log.text), log.events.length), { ...edited, flat: flat ? flat(edited.flat) : edited.flat });
  return readMeasures(path, BUILD, log);
}

/** Known measures that count the regions they give back. */
function counted(measures: NonNullable<Awaited<ReturnType<typeof stored>>>, opened: readonly Message[]) {
  const known = knownMeasures(measures, opened);
  const used = { regions: 0 };
  const region = (l: WireLedger, drop: number) => {
    const told = known.region(l, drop);
    if (told) used.regions++;
    return told;
  };
  return { used, known: { entry: known.entry, region } };
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
    ["another version of it", header((h) => h.replace('"v":3', '"v":2'))],
    ["a key it does not know", header((h) => h.replace('{"v":3', '{"v":3,"more":0'))],
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

test("the region a run dropped steps behind is taken from the file by a resume that drops as many, and the request is what composing gives (100 random histories)", async () => {
  const failures: string[] = [];
  let reused = 0;
  for (let seed = 1; seed <= 100 && failures.length < 3; seed++) {
    const rng = prng(1000 + seed);
    const history = randomHistory(rng, rng.int(20, 80));
    const model = rng.chance(0.8) ? "gpt-5" : "o3";
    // Thresholds low enough that old steps are dropped; the same plan most of the time, another now and then.
    const s: RequestSpec = { ...spec(rng, model), limits: { threshold: rng.int(300, 4_000), window: 300_000 }, harder: false };
    const measures = await stored(history, model, join(dir, `r${seed}.measures`), undefined, undefined, { spec: s });
    const opened = [...history];
    if (rng.chance(0.5)) history.push({ role: "user", text: `go on ${seed}` });
    const asked = rng.chance(0.7) ? s : { ...s, limits: { ...s.limits, threshold: rng.int(300, 4_000) } };
    const { used, known } = counted(measures!, opened);
    const [a, b] = [composeRequest(history, asked, createWireLedger(known)), composeRequest(structuredClone(history), asked)];
    if (JSON.stringify(a) !== JSON.stringify(b)) failures.push(`seed ${seed}: the request`);
    // The bytes sent: the region read back goes in as its stored JSON.
    const wire = bodyJson(a.body);
    if ((typeof wire === "string" ? wire : Buffer.from(wire).toString()) !== JSON.stringify(b.body)) failures.push(`seed ${seed}: the bytes sent`);
    reused += used.regions;
  }
  expect(failures).toEqual([]);
  expect(reused).toBeGreaterThan(30);
}, 30_000);

test("a stored region is used only for the very steps it stood for: not for another drop, other messages, another model, nor when its section is damaged", async () => {
  const rng = prng(11);
  const history = randomHistory(rng, 60);
  const s: RequestSpec = { model: "gpt-5", instructions: "", tools: [], params: { stream: true } as RequestSpec["params"], limits: { threshold: 1_500, window: 300_000 }, harder: false };
  // What a request is: its bytes and what it is estimated to weigh (a note's size only counts there).
  const composed = (h: readonly Message[], x: RequestSpec, ledger = createWireLedger()) => {
    const c = composeRequest(h, x, ledger);
    return { body: JSON.stringify(c.body), tokens: c.tokens, compaction: c.compaction };
  };
  const measured = composed(structuredClone(history), s);
  expect(measured.body).toContain("left out of this request");
  const path = join(dir, "region.measures");
  // Each note taken as a hundred times its size: used, the request is estimated the heavier.
  const forge = (m: MeasuresToStore): MeasuresToStore => ({ ...m, region: { ...m.region!, chars: m.region!.chars.map((c, j) => (m.region!.notes.includes(j) ? c * 100 : c)) } });
  const forged = await stored(history, "gpt-5", path, undefined, undefined, { spec: s, edit: forge });
  const used = composed(history, s, createWireLedger(knownMeasures(forged!, history)));
  expect(used.body).toBe(measured.body);
  expect(used.tokens).toBeGreaterThan(measured.tokens * 10);

  const dropOf = (x: RequestSpec) => {
    const ledger = createWireLedger();
    composeRequest(structuredClone(history), x, ledger);
    return composedRegion(ledger)?.drop;
  };
  // A threshold that drops fewer steps, but some.
  const fewer = [10_000, 20_000, 30_000, 40_000].map((threshold) => ({ ...s, limits: { ...s.limits, threshold } })).find((x) => (dropOf(x) ?? 0) > 0 && dropOf(x) !== dropOf(s))!;
  expect(fewer).toBeDefined();
  expect(composed(history, fewer, createWireLedger(knownMeasures(forged!, history)))).toEqual(composed(structuredClone(history), fewer));
  expect(composed(history, s, createWireLedger(knownMeasures(forged!, structuredClone(history))))).toEqual(measured);
  const o3 = { ...s, model: "o3" };
  expect(composed(history, o3, createWireLedger(knownMeasures(forged!, history)))).toEqual(composed(structuredClone(history), o3));
  const damaged: [string, (m: MeasuresToStore) => MeasuresToStore][] = [
    ["a size that is no number", (m) => ({ ...forge(m), region: { ...forge(m).region!, chars: ["42" as never, ...forge(m).region!.chars.slice(1)] } })],
    ["a note fewer than the gaps", (m) => ({ ...forge(m), region: { ...forge(m).region!, chars: forge(m).region!.chars.slice(1) } })],
    ["beyond the steps stored", (m) => ({ ...forge(m), region: { ...forge(m).region!, end: m.from + (m.texts.length + 1) } })],
    ["no items", (m) => ({ ...forge(m), region: { ...forge(m).region!, items: new Uint8Array() } })],
    ["a note that is no item", (m) => ({ ...forge(m), region: { ...forge(m).region!, notes: [forge(m).region!.chars.length] } })],
  ];
  for (const [what, edit] of damaged) {
    const read = await stored(history, "gpt-5", path, undefined, undefined, { spec: s, edit });
    expect([what, composed(history, s, createWireLedger(knownMeasures(read!, history)))]).toEqual([what, measured]);
  }
});
