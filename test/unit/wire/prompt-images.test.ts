import { expect, test } from "bun:test";
import { wireEntry } from "../../../src/context/wire-entry.ts";
import type { Message } from "../../../src/session/messages.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import { checkInput } from "../../support/check-input.ts";
import { PNG } from "../../support/image-files.ts";

const png = { mediaType: "image/png", data: PNG.toString("base64") };
const url = `data:image/png;base64,${png.data}`;

test("a prompt with images: its text, then each image as input_image, in a request the API takes; without images the item is as it always was", () => {
  const messages: Message[] = [{ role: "user", text: "what is this?", images: [png, png] }, { role: "assistant", model: "gpt-5", parts: [{ type: "text", text: "a dot" }] }, { role: "user", text: "thanks" }];
  const input = serialiseInput(messages, { model: "gpt-5" });
  expect(input[0]).toEqual({
    type: "message",
    role: "user",
    content: [{ type: "input_text", text: "what is this?" }, { type: "input_image", image_url: url, detail: "auto" }, { type: "input_image", image_url: url, detail: "auto" }],
  });
  expect(input[2]).toEqual({ type: "message", role: "user", content: [{ type: "input_text", text: "thanks" }] });
  expect(checkInput({ model: "gpt-5", input })).toBeNull();
});

test("to a model that takes no images, a prompt's images are a line after its text", () => {
  const input = serialiseInput([{ role: "user", text: "what is this?", images: [png, png] }], { model: "o3-mini" });
  expect(input).toEqual([{ type: "message", role: "user", content: [{ type: "input_text", text: "what is this?\n[the 2 images are not shown: o3-mini takes no images]" }] }]);
});

test("an image in a prompt weighs as much as the model reads of it, not its base64", () => {
  const big = { mediaType: "image/png", data: "A".repeat(1_400_000) };
  const entry = wireEntry([{ role: "user", text: "look", images: [big] }], 0, "gpt-5");
  expect(entry.chars).toBeGreaterThan(6000);
  expect(entry.chars).toBeLessThan(6100);
});

test("an old result with an image, however short its text, can be elided: the stub names the image", () => {
  const messages: Message[] = [
    { role: "user", text: "look" },
    { role: "assistant", model: "gpt-5", parts: [{ type: "tool-call", callId: "c1", name: "read_file", arguments: '{"path":"shot.png"}' }] },
    { role: "tool", results: [{ callId: "c1", output: "[image: shot.png, image/png, 70 B]", images: [png] }] },
  ];
  const output = wireEntry(messages, 1, "gpt-5").slots.find((s) => s.kind === "output")!;
  expect(output.elided?.item).toEqual({ type: "function_call_output", call_id: "c1", output: "[output of read_file shot.png elided: 34 chars and 1 image — read it again if needed]" });
  expect(output.chars - output.elided!.chars).toBeGreaterThan(5000);
});
