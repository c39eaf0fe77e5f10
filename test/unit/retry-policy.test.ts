import { expect, test } from "bun:test";
import { isFatalCode, isRetryableStatus, MAX_ATTEMPTS, retryAfterFrom, retryDelayMs } from "../../src/wire/retry-policy.ts";

test("five retries: six attempts in all", () => expect(MAX_ATTEMPTS).toBe(6));

test("the backoff starts at 0.5 s, doubles, and is capped at 30 s; jitter only adds up to 25%", () => {
  expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelayMs(n, { random: () => 0 }))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  expect(retryDelayMs(1, { random: () => 0.999 })).toBe(625);
  expect(retryDelayMs(9, { random: () => 0.999 })).toBe(37_493);
});

test("the server's retry-after wins over the backoff, without jitter, and is capped at 60 s", () => {
  expect(retryDelayMs(3, { retryAfterMs: 1500, random: () => 0.9 })).toBe(1500);
  expect(retryDelayMs(1, { retryAfterMs: 0 })).toBe(0);
  expect(retryDelayMs(1, { retryAfterMs: 3_600_000 })).toBe(60_000);
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
