import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sealReasoning } from "../../support/check-input.ts";
import { postResponses, streamFrames, userMessage, jsonOf } from "../../support/sse-client.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { PNG } from "../../support/image-files.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": () => ({ reasoning: ["thinking"], text: "answer" }) }, defaultModel: null });
});
afterAll(() => server.stop());

const user = userMessage("hi");
const call = (id: string) => ({ type: "function_call", call_id: id, name: "read_file", arguments: "{}" });
const output = (id: string) => ({ type: "function_call_output", call_id: id, output: "x" });

async function rejection(body: Record<string, unknown>) {
  const res = await postResponses(server.url, { model: "gpt-5", stream: true, ...body });
  return { status: res.status, ...(await jsonOf(res)).error };
}

/** A stored response's output items, as issued by this server. */
async function storedOutput(store: boolean) {
  const frames = await streamFrames(server.url, { model: "gpt-5", input: [user], store, include: ["reasoning.encrypted_content"] });
  return frames.at(-1)!.data.response.output as any[];
}

describe("input rules, answered with the API's status and exact text", () => {
  test("output without an earlier call", async () => {
    expect(await rejection({ input: [user, output("call_9")] })).toMatchObject({
      status: 400,
      message: "No tool call found for function call output with call_id call_9.",
      param: "input",
    });
  });

  test("call without an output", async () => {
    expect(await rejection({ input: [user, call("call_1")] })).toMatchObject({
      status: 400,
      message: "No tool output found for function call call_1.",
    });
  });

  test("unknown item id → 404", async () => {
    expect(await rejection({ input: [user, { type: "message", id: "msg_nope", role: "assistant", content: [{ type: "output_text", text: "a" }] }] })).toMatchObject({
      status: 404,
      message:
        "Item with id 'msg_nope' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
    });
  });

  test("an id made under store:false is never found; one made under store:true needs its reasoning item", async () => {
    const [, unstoredMsg] = await storedOutput(false);
    const asInput = (msg: any) => ({ type: "message", id: msg.id, role: "assistant", content: msg.content });
    expect((await rejection({ input: [user, asInput(unstoredMsg)] })).status).toBe(404);

    const [reasoning, msg] = await storedOutput(true);
    expect(await rejection({ input: [user, asInput(msg)] })).toMatchObject({
      status: 400,
      message: `Item '${msg.id}' of type 'message' was provided without its required 'reasoning' item: '${reasoning.id}'.`,
    });
    const withReasoning = [user, { type: "reasoning", id: reasoning.id, summary: [], encrypted_content: reasoning.encrypted_content }, asInput(msg), userMessage("more")];
    expect((await postResponses(server.url, { model: "gpt-5", stream: true, input: withReasoning })).status).toBe(200);
  });

  test("reasoning not followed by the item it produced", async () => {
    const enc = sealReasoning("rs_abc", "gpt-5");
    expect(await rejection({ input: [user, { type: "reasoning", summary: [], encrypted_content: enc }, userMessage("next")] })).toMatchObject({
      status: 400,
      message: "Item 'rs_abc' of type 'reasoning' was provided without its required following item.",
    });
  });

  test("encrypted reasoning from another model, or altered", async () => {
    for (const enc of [sealReasoning("rs_1", "gpt-5-mini"), sealReasoning("rs_1", "gpt-5").replace("gAAA", "gAAAx")]) {
      const input = [user, { type: "reasoning", summary: [], encrypted_content: enc }, { type: "message", role: "assistant", content: [{ type: "output_text", text: "a" }] }, userMessage("b")];
      expect(await rejection({ input })).toMatchObject({ status: 400, code: "invalid_encrypted_content" });
    }
  });
});

describe("images in a prompt or an output, as the API reads them", () => {
  const image = (url: string, more: Record<string, unknown> = {}) => ({ type: "input_image", image_url: url, detail: "auto", ...more });
  const prompt = (...parts: unknown[]) => ({ type: "message", role: "user", content: [{ type: "input_text", text: "see" }, ...parts] });
  const png = `data:image/png;base64,${PNG.toString("base64")}`;

  test("a real PNG as a data URL is taken, in a prompt and in an output", async () => {
    expect((await postResponses(server.url, { model: "gpt-5", stream: true, input: [prompt(image(png))] })).status).toBe(200);
    const withOutput = [user, call("c1"), { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "a" }, image(png)] }];
    expect((await postResponses(server.url, { model: "gpt-5", stream: true, input: withOutput })).status).toBe(200);
  });

  test("text sent as an image is refused with the API's words, in a prompt as in an output", async () => {
    const text = `data:image/png;base64,${Buffer.from("not an image").toString("base64")}`;
    const words = "The image data you provided does not represent a valid image. Please check your input and try again with one of the supported image formats: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'].";
    expect(await rejection({ input: [prompt(image(text))] })).toMatchObject({ status: 400, message: words });
    const withOutput = [user, call("c1"), { type: "function_call_output", call_id: "c1", output: [image(text)] }];
    expect(await rejection({ input: withOutput })).toMatchObject({ status: 400, message: words });
  });

  test("a detail it does not know, a key it does not know, a URL that is none", async () => {
    expect(await rejection({ input: [prompt(image(png, { detail: "max" }))] })).toMatchObject({ status: 400, param: "input[0].content[1].detail" });
    expect(await rejection({ input: [prompt(image(png, { media_type: "image/png" }))] })).toMatchObject({ status: 400, message: "Unknown parameter: 'input[0].content[1].media_type'." });
    expect(await rejection({ input: [prompt(image("shot.png"))] })).toMatchObject({ status: 400, param: "input[0].content[1].image_url" });
  });
});

describe("request rules beyond the input", () => {
  test("unknown parameters, top level and on items", async () => {
    expect(await rejection({ input: [user], messages: [] })).toMatchObject({ status: 400, message: "Unknown parameter: 'messages'.", param: "messages", code: "unknown_parameter" });
    expect(await rejection({ input: [{ ...user, text: "hi" }] })).toMatchObject({ message: "Unknown parameter: 'input[0].text'.", code: "unknown_parameter" });
  });

  test("max_output_tokens below 16, temperature on a reasoning model", async () => {
    expect(await rejection({ input: [user], max_output_tokens: 10 })).toMatchObject({
      message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead.",
      code: "integer_below_min_value",
    });
    expect(await rejection({ input: [user], temperature: 0.2 })).toMatchObject({
      message: "Unsupported parameter: 'temperature' is not supported with this model.",
      param: "temperature",
    });
  });

  test("strict function tools need closed objects with every property required", async () => {
    const tool = (parameters: object) => ({ type: "function", name: "read_file", strict: true, parameters });
    const open = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
    expect(await rejection({ input: [user], tools: [tool(open)] })).toMatchObject({
      message: "Invalid schema for function 'read_file': In context=(), 'additionalProperties' is required to be supplied and to be false.",
      param: "tools[0].parameters",
      code: "invalid_function_parameters",
    });
    const optional = { type: "object", properties: { path: { type: "string" }, offset: { type: "number" } }, required: ["path"], additionalProperties: false };
    expect((await rejection({ input: [user], tools: [tool(optional)] })).message).toBe(
      "Invalid schema for function 'read_file': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'offset'.",
    );
    expect(await rejection({ input: [user], tools: [{ type: "function", function: { name: "x" } }] })).toMatchObject({ message: "Missing required parameter: 'tools[0].name'." });
    const ok = await postResponses(server.url, { model: "gpt-5", stream: true, input: [user], tools: [{ ...tool(open), strict: false }] });
    expect(ok.status).toBe(200);
  });

  test("text.format json_schema: a name and a schema; in strict mode an object at the top, closed, every property required", async () => {
    const format = (schema: object, extra: object = {}) => ({ text: { format: { type: "json_schema", name: "verdict", schema, strict: true, ...extra } } });
    const closed = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false };
    expect(await rejection({ input: [user], ...format({ ...closed, required: [] }) })).toMatchObject({
      status: 400,
      message: "Invalid schema for response_format 'verdict': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'ok'.",
      param: "text.format.schema",
      code: "invalid_json_schema",
    });
    const nested = { ...closed, properties: { ok: { type: "object", properties: {} } } };
    expect((await rejection({ input: [user], ...format(nested) })).message).toBe(
      "Invalid schema for response_format 'verdict': In context=('properties', 'ok'), 'additionalProperties' is required to be supplied and to be false.",
    );
    expect((await rejection({ input: [user], ...format({ type: "array", items: closed }) })).message).toBe(
      `Invalid schema for response_format 'verdict': schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`,
    );
    expect(await rejection({ input: [user], text: { format: { type: "json_schema", schema: closed } } })).toMatchObject({ message: "Missing required parameter: 'text.format.name'.", param: "text.format.name" });
    expect((await rejection({ input: [user], ...format(closed, { name: "a verdict" }) })).param).toBe("text.format.name");
    const lax = await postResponses(server.url, { model: "gpt-5", stream: true, input: [user], ...format({ ...closed, required: [] }, { strict: false }) });
    expect(lax.status).toBe(200);
  });

  test("an answer a strict format could not have produced is the script's fault (500), unless the server stands in for one that does not enforce it", async () => {
    const format = { type: "json_schema", name: "v", strict: true, schema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false } };
    const answering = (text: string, unenforcedFormats = false) => startStrictServer({ defaultModel: () => ({ text }), unenforcedFormats });
    for (const [text, status, unenforced] of [['{"ok":true}', 200, false], ['{"ok":"yes"}', 500, false], ["not json", 500, false], ['{"ok":"yes"}', 200, true]] as const) {
      const own = await answering(text, unenforced);
      try {
        const res = await postResponses(own.url, { model: "m", stream: true, input: [user], text: { format } });
        expect([text, res.status]).toEqual([text, status]);
        await res.text();
      } finally {
        await own.stop();
      }
    }
  });

  test("bad JSON, unknown URL, unknown model", async () => {
    const bad = await postResponses(server.url, null, { raw: "{not json" });
    expect(bad.status).toBe(400);
    expect((await jsonOf(bad)).error.message).toStartWith("We could not parse the JSON body of your request.");
    const wrongPath = await fetch(`${server.url}/chat/completions`, { method: "POST", headers: { authorization: "Bearer k" }, body: "{}" });
    expect(wrongPath.status).toBe(404);
    expect((await jsonOf(wrongPath)).error.message).toBe("Invalid URL (POST /v1/chat/completions)");
    expect(await rejection({ model: "gpt-9", input: [user] })).toMatchObject({
      status: 400,
      message: "The requested model 'gpt-9' does not exist.",
      code: "model_not_found",
    });
  });
});
