import { expect, test } from "bun:test";
import { composeRequest, type RequestSpec } from "../../../src/context/compose-request.ts";
import { createWireLedger } from "../../../src/context/wire-ledger.ts";
import type { Message, ToolMessage } from "../../../src/session/messages.ts";
import { MODELS, prng, randomHistory } from "../../support/random-history.ts";

const CASES = 120;

/**
 * A running session's history grows as its reducer grows it: messages are appended, and a tool
 * message gains its results one by one, in place. A ledger kept across requests must give what a
 * fresh one gives at every point, however the requests fall.
 */
test(`a ledger kept across a growing history composes what a fresh one does (${CASES} random histories)`, () => {
  const failures: string[] = [];
  for (let seed = 1; seed <= CASES && failures.length < 3; seed++) {
    const rng = prng(seed);
    const final = randomHistory(rng, rng.int(1, 60));
    const window = rng.int(2_000, 300_000);
    const spec = (): RequestSpec => ({
      model: rng.chance(0.9) ? "gpt-5" : rng.pick(MODELS),
      instructions: "i".repeat(rng.int(0, 5_000)),
      tools: [],
      params: { stream: true } as RequestSpec["params"],
      limits: { threshold: rng.int(300, window), window },
      harder: rng.chance(0.1),
      ...(rng.chance(0.3) ? { trailer: `todo ${rng.int(0, 9)}` } : {}),
    });
    const kept = createWireLedger();
    const live: Message[] = [];
    const check = () => {
      if (!rng.chance(0.4)) return;
      const s = spec();
      const reused = JSON.stringify(composeRequest(live, s, kept).body);
      const fresh = JSON.stringify(composeRequest(structuredClone(live), s).body);
      if (reused !== fresh) failures.push(`seed ${seed} at ${live.length} messages`);
      // inspect rebuilds earlier calls from prefixes of the same history
      if (rng.chance(0.1) && live.length > 2) {
        const count = rng.int(1, live.length);
        if (JSON.stringify(composeRequest(live.slice(0, count), s, kept).body) !== JSON.stringify(composeRequest(structuredClone(live.slice(0, count)), s).body))
          failures.push(`seed ${seed}, a prefix of ${count}`);
      }
    };
    for (const m of final) {
      if (m.role !== "tool") {
        live.push(m);
        check();
        continue;
      }
      const growing: ToolMessage = { role: "tool", results: [] };
      live.push(growing);
      for (const r of m.results) {
        growing.results.push(r);
        check();
      }
    }
  }
  expect(failures).toEqual([]);
}, 30_000);
