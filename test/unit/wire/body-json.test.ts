import { expect, test } from "bun:test";
import { bodyJson, bodyWithKnownInput } from "../../../src/wire/body-json.ts";
import type { RequestBody } from "../../../src/wire/model-stream.ts";
import { prng, type Rng } from "../../support/random-history.ts";

const item = (rng: Rng, i: number) => ({ type: "message", role: "user", content: [{ type: "input_text", text: `${i} ${"é→\"\\\u0000</x>".slice(0, rng.int(0, 7))}${"a".repeat(rng.int(0, 40))}` }] });
const utf8 = (wire: string | Uint8Array) => (typeof wire === "string" ? wire : Buffer.from(wire).toString());

test("a body whose input begins with items known as JSON goes on the wire as JSON.stringify writes it, those bytes spliced in (200 random bodies)", () => {
  const rng = prng(5);
  for (let n = 0; n < 200; n++) {
    const items = Array.from({ length: rng.int(1, 30) }, (_, i) => item(rng, i));
    const count = rng.int(1, items.length);
    const rest = { model: "gpt-5", instructions: `i\u0000input:${n}`, tools: [], stream: true, ...(rng.chance(0.5) ? { store: false } : {}) };
    const body = bodyWithKnownInput(rest, { head: Buffer.from(JSON.stringify(items.slice(0, count))), tail: items.slice(count) as never });
    const wire = bodyJson(body);
    expect(wire).toBeInstanceOf(Uint8Array);
    // Read as any body is (a test's model): the same input, and the same JSON.
    expect(body.input).toEqual(items as never);
    expect(utf8(wire)).toBe(JSON.stringify(body));
    expect(utf8(wire)).toBe(JSON.stringify({ ...rest, input: items }));
  }
});

test("the known bytes are what goes on the wire: the input is neither parsed nor serialised again for it", () => {
  const items = [item(prng(1), 0), item(prng(2), 1)];
  // JSON that is not what the items hold: only its use can put it in the body.
  const body = bodyWithKnownInput({ model: "m" }, { head: Buffer.from(JSON.stringify([{ ...items[0], marked: true }])), tail: [items[1]!] as never });
  expect(utf8(bodyJson(body))).toContain('"marked":true');
  expect(bodyJson({ model: "m", input: items } as unknown as RequestBody)).toBe(JSON.stringify({ model: "m", input: items }));
});
