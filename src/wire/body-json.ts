import type { RequestBody } from "./model-stream.ts";

/** Of an input array: its first `count` items serialise to `json` (a JSON array's text). */
type KnownJson = { count: number; json: string };
const known = new WeakMap<readonly unknown[], KnownJson>();

/** Records that `items`' first `count` items are what the JSON array `json` holds (they were parsed from it). */
export function knowItemsJson(items: readonly unknown[], count: number, json: string): void {
  if (count > 0) known.set(items, { count, json });
}

/** `to` begins with the items of `from`: what is known of their JSON holds for it too. */
export function carryItemsJson(from: readonly unknown[], to: readonly unknown[]): void {
  const k = known.get(from);
  if (k) known.set(to, k);
}

// Stands for the input while the rest of the body is serialised; no value of a body can be it (it is made here, per process).
const PLACE = `\u0000input:${Bun.randomUUIDv7()}`;
const PLACE_JSON = JSON.stringify(PLACE);

/**
 * The body's JSON, as `JSON.stringify` writes it — but a run of input items read back from a JSON
 * text (a resume's dropped region) goes in as that text, not serialised again: hundreds of
 * kilobytes of a long session's first request.
 */
export function bodyJson(body: RequestBody): string {
  const input = body.input as readonly unknown[];
  const k = known.get(input);
  if (!k) return JSON.stringify(body);
  const rest = input.slice(k.count);
  const items = rest.length ? `${k.json.slice(0, -1)},${JSON.stringify(rest).slice(1)}` : k.json;
  const text = JSON.stringify({ ...body, input: PLACE });
  const at = text.indexOf(PLACE_JSON);
  return `${text.slice(0, at)}${items}${text.slice(at + PLACE_JSON.length)}`;
}
