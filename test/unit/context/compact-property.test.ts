import { expect, test } from "bun:test";
import type { Message } from "../../../src/session/messages.ts";
import { compactForWire, overflowsEveryPlan } from "../../../src/context/compact.ts";
import { createWireLedger } from "../../../src/context/wire-ledger.ts";
import { describeSubject, subjectOf } from "../../../src/context/describe-call.ts";
import { activeStart } from "../../../src/wire/serialise-input.ts";
import { INTERRUPTED_OUTPUT, serialiseInput } from "../../../src/wire/serialise-input.ts";
import { checkInput } from "../../support/check-input.ts";
import { MODELS, prng, randomHistory } from "../../support/random-history.ts";

type Item = Record<string, any>;
const CASES = 2_000;

// A frozen history makes any write to the session's own messages throw (ES modules are strict).
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Every broken invariant of one case, as text (empty when it holds), and which steps it reached. */
function check(history: Message[], seed: number): { problems: string[]; compacted: boolean; dropped: boolean; floored: boolean } {
  const rng = prng(seed * 7919 + 1);
  const model = rng.pick(MODELS);
  // Small windows too: some histories must drop whole steps even with all but two outputs elided.
  const window = rng.int(1_000, 300_000);
  const threshold = rng.int(500, window);
  const harder = rng.chance(0.2);
  const opts = { model, threshold, window, harder, instructionsChars: rng.int(0, 20_000) };
  const result = compactForWire(history, opts);
  const input = result.input as Item[];
  const problems: string[] = [];

  const error = checkInput({ model, input });
  if (error) problems.push(`API rejects the input: ${error.body.error.message}`);

  const start = activeStart(history);
  const task = history.slice(start).find((m) => m.role === "user");
  const userTexts = input.filter((i) => i.type === "message" && i.role === "user").map((i) => i.content[0].text as string);
  if (task?.role === "user" && !userTexts.includes(task.text)) problems.push("the first user message is not on the wire");

  // Every call is on the wire, or dropped by step 3 and listed (by tool and subject) in a note.
  const onWire = new Set(input.filter((i) => i.type === "function_call").map((i) => i.call_id));
  const noteLines = userTexts.filter((t) => t.startsWith("[shiro: ")).flatMap((t) => t.split("\n").filter((l) => l.startsWith("- ")));
  const listed = new Map<string, number>();
  for (const line of noteLines) {
    const head = line.slice(2, line.lastIndexOf(" → ") >>> 0);
    listed.set(head, (listed.get(head) ?? 0) + 1);
  }
  // Outputs on the wire are the real ones or their stubs; a call without a result says it was interrupted.
  const results = new Map(history.flatMap((m) => (m.role === "tool" ? m.results.map((r) => [r.callId, r.output] as const) : [])));
  for (const item of input.filter((i) => i.type === "function_call_output")) {
    const real = results.get(item.call_id);
    const ok = real === undefined ? item.output === INTERRUPTED_OUTPUT : item.output === real || /^\[(error )?output of .* elided: [\d,]+ chars — /.test(item.output);
    if (!ok) problems.push(`output of ${item.call_id} is neither its result nor a stub: ${item.output.slice(0, 80)}`);
  }

  for (const m of history.slice(start)) {
    if (m.role !== "assistant") continue;
    for (const p of m.parts) {
      if (p.type !== "tool-call" || onWire.has(p.callId)) continue;
      const head = describeSubject(p.name, subjectOf(p));
      const left = listed.get(head) ?? 0;
      if (left === 0) problems.push(`call ${p.callId} (${head}) vanished without a note`);
      listed.set(head, left - 1);
    }
  }

  if (!harder && !result.compaction && JSON.stringify(input) !== JSON.stringify(serialiseInput(history, { model }))) problems.push("changed messages without reporting a compaction");
  if (!result.needsSummary && result.tokens > window) problems.push(`${result.tokens} tokens over the window ${window} without needsSummary`);
  // The floor that lets a long resume skip planning: it may say "no plan fits" only when none did, with the same report.
  const ledger = createWireLedger();
  const floored = overflowsEveryPlan(history, opts, ledger);
  if (floored && !result.needsSummary) problems.push("the floor says no plan fits the window, but one did");
  if (floored && (result.compaction?.messagesBefore !== ledger.entries.length || result.compaction.tokensBefore !== floored.tokensBefore))
    problems.push(`the floor reports ${ledger.entries.length} messages / ${floored.tokensBefore} tokens, compaction ${JSON.stringify(result.compaction)}`);
  return { problems, compacted: result.compaction !== undefined, dropped: noteLines.length > 0, floored: floored !== undefined };
}

test(`compaction keeps ${CASES} random histories valid for the API and keeps the record of every call`, () => {
  const failures: string[] = [];
  let compacted = 0;
  let dropped = 0;
  let floored = 0;
  for (let seed = 1; seed <= CASES && failures.length < 5; seed++) {
    const history = deepFreeze(randomHistory(prng(seed)));
    const outcome = check(history, seed);
    if (outcome.problems.length) failures.push(`seed ${seed}: ${outcome.problems.join("; ")}`);
    if (outcome.compacted) compacted++;
    if (outcome.dropped) dropped++;
    if (outcome.floored) floored++;
  }
  expect(failures).toEqual([]);
  // The generator really reaches every step of the ladder.
  expect(compacted).toBeGreaterThan(CASES / 3);
  expect(dropped).toBeGreaterThan(CASES / 10);
  expect(floored).toBeGreaterThan(CASES / 50);
}, 20_000);
