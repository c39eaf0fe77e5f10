import { expect, test } from "bun:test";
import { configurePrices } from "../../../src/pricing/cost.ts";
import { sessionTotals } from "../../../src/pricing/session-totals.ts";
import { reduceSession } from "../../../src/session/reduce-session.ts";
import { entryOf } from "../../../src/store/build-index.ts";
import { createTotalsMemo } from "../../../src/store/totals-memo.ts";
import { prng } from "../../support/random-history.ts";
import { randomLog } from "../../support/random-log.ts";

test("a session's totals summed on at each turn are, bit for bit, its whole history summed (60 random logs, undos among them)", () => {
  for (let seed = 1; seed <= 60; seed++) {
    const events = randomLog(prng(seed), 30);
    const memo = createTotalsMemo();
    // The state as each event of the log leaves it, as a run's turns would list it.
    for (let n = 2; n <= events.length; n += 1 + (seed % 5)) {
      const state = reduceSession(events.slice(0, n));
      expect([seed, n, memo.of(state)]).toEqual([seed, n, sessionTotals(state.messages)]);
    }
  }
});

test("what the listing entry of the very log opened says is gone on from — unless it was summed under other prices", () => {
  const events = randomLog(prng(2), 20);
  const state = reduceSession(events);
  const entry = { ...entryOf(state, { bytes: 1234 }) };
  // An entry that says otherwise than the messages: only its use can give its figures.
  const told = { ...entry, usage: { ...entry.usage, outputTokens: 7 }, costUsd: 0.5 };
  const used = createTotalsMemo();
  used.listed(told, 1234, state);
  expect([used.of(state).costUsd, used.of(state).usage.outputTokens]).toEqual([0.5, 7]);
  for (const [what, bytes, prices] of [["another log size", 1235, {}], ["other prices", 1234, { "gpt-5": { input: 9, output: 9 } }]] as const) {
    configurePrices(prices);
    const memo = createTotalsMemo();
    memo.listed(told, bytes, state);
    expect([what, memo.of(state)]).toEqual([what, sessionTotals(state.messages)]);
    configurePrices({});
  }
});
