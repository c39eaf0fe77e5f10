import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { RequestBody } from "./model-stream.ts";

/** The input's first items as the UTF-8 JSON of an array (read back from where a run stored them), and the items after them. */
export type KnownInput = { head: Uint8Array; tail: readonly ResponseInputItem[] };

const known = new WeakMap<RequestBody, { rest: object; input: KnownInput }>();
const decoder = new TextDecoder();

/**
 * A body whose input begins with items known only as JSON: `input` is made of that JSON and `tail`
 * when first read (by a test's model, say), and `bodyJson` sends the JSON as it is. The body's other
 * fields are `rest`'s, in order, `input` last.
 */
export function bodyWithKnownInput(rest: object, input: KnownInput): RequestBody {
  let items: ResponseInputItem[] | undefined;
  const body = {
    ...rest,
    get input() {
      return (items ??= [...(JSON.parse(decoder.decode(input.head)) as ResponseInputItem[]), ...input.tail]);
    },
  } as unknown as RequestBody;
  known.set(body, { rest, input });
  return body;
}

// Stands for the input while the rest of the body is serialised; no value of a body can be it (it is made here, per process).
const PLACE = `\u0000input:${Bun.randomUUIDv7()}`;
const PLACE_JSON = JSON.stringify(PLACE);

/**
 * What goes on the wire: the body's JSON, as `JSON.stringify` writes it — with input items known as
 * JSON (a resume's dropped region, read back) sent as those very bytes, neither parsed nor
 * serialised again: hundreds of kilobytes of a long session's first request.
 */
export function bodyJson(body: RequestBody): string | Uint8Array {
  const k = known.get(body);
  if (!k) return JSON.stringify(body);
  const text = JSON.stringify({ ...k.rest, input: PLACE });
  const at = text.indexOf(PLACE_JSON);
  const tail = k.input.tail.length ? `,${JSON.stringify(k.input.tail).slice(1)}` : "]";
  return Buffer.concat([Buffer.from(text.slice(0, at)), k.input.head.subarray(0, -1), Buffer.from(tail + text.slice(at + PLACE_JSON.length))]);
}
