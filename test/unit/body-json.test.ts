import { expect, test } from "bun:test";
import { bodyJson, carryItemsJson, knowItemsJson } from "../../src/wire/body-json.ts";
import type { RequestBody } from "../../src/wire/model-stream.ts";
import { prng, type Rng } from "../support/random-history.ts";

const item = (rng: Rng, i: number) => ({ type: "message", role: "user", content: [{ type: "input_text", text: `${i} ${"é→\"\\\u0000</x>".slice(0, rng.int(0, 7))}${"a".repeat(rng.int(0, 40))}` }] });

test("a body whose input begins with items read back from JSON is sent as JSON.stringify writes it, that text spliced in (200 random bodies)", () => {
  const rng = prng(5);
  for (let n = 0; n < 200; n++) {
    const items = Array.from({ length: rng.int(1, 30) }, (_, i) => item(rng, i));
    const count = rng.int(1, items.length);
    // Parsed from the JSON they were stored as: the same objects a resume takes.
    const json = JSON.stringify(items.slice(0, count));
    const input = [...(JSON.parse(json) as unknown[]), ...items.slice(count)];
    knowItemsJson(input, count, json);
    const body = { model: "gpt-5", instructions: `i\u0000input:${n}`, tools: [], stream: true, ...(rng.chance(0.5) ? { store: false } : {}), input } as unknown as RequestBody;
    expect(bodyJson(body)).toBe(JSON.stringify(body));
    // A copy that goes on from them (a trailer after the history) keeps what is known.
    const longer = [...input, item(rng, 99)];
    carryItemsJson(input, longer);
    const withTrailer = { ...body, input: longer } as RequestBody;
    expect(bodyJson(withTrailer)).toBe(JSON.stringify(withTrailer));
  }
});

test("the known text is what goes on the wire: a body is not serialised again where it was read back", () => {
  const items = [item(prng(1), 0), item(prng(2), 1)];
  const input = [...items];
  // Text that is not what the items hold: only its use can put it in the body.
  knowItemsJson(input, 1, JSON.stringify([{ ...items[0], marked: true }]));
  expect(bodyJson({ model: "m", input } as unknown as RequestBody)).toContain('"marked":true');
  expect(bodyJson({ model: "m", input: [...items] } as unknown as RequestBody)).not.toContain("marked");
});
