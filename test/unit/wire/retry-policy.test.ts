import { expect, test } from "bun:test";
import { isFatalCode, isRetryableStatus, MAX_ATTEMPTS, planRetry, retryAfterFrom, type FaultCounts, type FaultKind, type RetryPlan } from "../../../src/wire/retry-policy.ts";

/** The waits one call meets for a run of faults in this order, each attempt failing; stops where the policy does. */
function waits(kinds: FaultKind[], opts: { random?: () => number; retryAfterMs?: (i: number) => number | undefined; reached?: boolean } = {}) {
  let counts: FaultCounts = {};
  const plans: RetryPlan[] = [];
  for (const [i, kind] of kinds.entries()) {
    const plan = planRetry({ kind, attempt: i + 1, counts, reached: opts.reached ?? true, random: opts.random ?? (() => 0), retryAfterMs: opts.retryAfterMs?.(i) });
    if (!plan) break;
    plans.push(plan);
    counts = plan.counts;
  }
  return plans;
}
const delays = (plans: RetryPlan[]) => plans.map((p) => p.delayMs);

test("five retries: six attempts in all, whatever the faults", () => {
  expect(MAX_ATTEMPTS).toBe(6);
  expect(waits(Array(9).fill("server"))).toHaveLength(5);
  expect(waits(["server", "dropped", "rate-limit", "dropped", "server", "server", "dropped"])).toHaveLength(5);
});

test("each kind doubles from its own start, to 10 s: 5xx 0.5 s, a rate limit without retry-after 1 s, a dropped connection 0.2 s", () => {
  expect(delays(waits(Array(5).fill("server")))).toEqual([500, 1000, 2000, 4000, 8000]);
  expect(delays(waits(Array(5).fill("rate-limit")))).toEqual([1000, 2000, 4000, 8000, 10_000]);
  expect(delays(waits(Array(5).fill("rate-limit"), { random: () => 0.999 })).at(-1)).toBe(12_498);
  expect(delays(waits(Array(5).fill("dropped")))).toEqual([200, 400, 800, 1600, 3200]);
});

test("jitter only adds, at most 25%: a first dropped connection is asked again within 0.25 s", () => {
  expect(delays(waits(["dropped"], { random: () => 0.999 }))).toEqual([250]);
  expect(delays(waits(["server"], { random: () => 0.999 }))).toEqual([625]);
  for (let i = 0; i < 200; i++) {
    const [ms] = delays(waits(["dropped"], { random: Math.random }));
    expect(ms).toBeGreaterThanOrEqual(200);
    expect(ms).toBeLessThanOrEqual(250);
  }
});

test("one kind does not lengthen another's wait: 429 (retry-after 1 s), 500, reset, EOF cost what each costs alone", () => {
  const mixed = waits(["rate-limit", "server", "dropped", "dropped"], { retryAfterMs: (i) => (i === 0 ? 1000 : undefined), random: () => 0.999 });
  expect(delays(mixed)).toEqual([1000, 625, 250, 500]);
  expect(delays(mixed).reduce((a, b) => a + b)).toBeLessThan(2_500);
  expect(mixed.at(-1)!.counts).toEqual({ "rate-limit": 1, server: 1, dropped: 2 });
});

test("the server's retry-after wins over any schedule, without jitter, and is capped at 60 s", () => {
  expect(delays(waits(["server", "server", "server"], { retryAfterMs: (i) => (i === 2 ? 1500 : undefined), random: () => 0.9 }))[2]).toBe(1500);
  expect(delays(waits(["dropped"], { retryAfterMs: () => 0 }))).toEqual([0]);
  expect(delays(waits(["rate-limit"], { retryAfterMs: () => 3_600_000 }))).toEqual([60_000]);
});

test("a base URL that never answered is not asked again; one that did gets two quick tries, announced as the last", () => {
  expect(waits(["unreachable"], { reached: false })).toEqual([]);
  const plans = waits(["unreachable", "unreachable", "unreachable"]);
  expect(plans.map((p) => [p.delayMs, p.maxAttempts])).toEqual([[250, 3], [500, 3]]);
  // Other faults keep the whole budget.
  expect(waits(["server"])[0]!.maxAttempts).toBe(6);
});

test("retry-after-ms, retry-after in seconds, and retry-after as an HTTP date are read", () => {
  const now = Date.parse("2026-12-01T10:00:00Z");
  expect(retryAfterFrom(new Headers({ "retry-after-ms": "250.5", "retry-after": "9" }), now)).toBe(250.5);
  expect(retryAfterFrom(new Headers({ "retry-after": "2" }), now)).toBe(2000);
  expect(retryAfterFrom(new Headers({ "retry-after": "Tue, 01 Dec 2026 10:00:05 GMT" }), now)).toBe(5000);
  expect(retryAfterFrom(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
  expect(retryAfterFrom(new Headers(), now)).toBeUndefined();
});

test("which statuses and codes are worth another try", () => {
  expect([408, 409, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
  expect([400, 401, 403, 404, 422].some(isRetryableStatus)).toBe(false);
  expect(["insufficient_quota", "context_length_exceeded", "content_filter"].every(isFatalCode)).toBe(true);
  expect(["rate_limit_exceeded", "server_error", undefined].some(isFatalCode)).toBe(false);
});
