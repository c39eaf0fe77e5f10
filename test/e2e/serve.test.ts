import { expect, test } from "bun:test";
import { jsonOf, postResponses, streamFrames, userMessage } from "../support/sse-client.ts";

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.split("\n")[0]!;
}

test("serve.ts prints its base URL first and answers with the chosen scripted model until killed", async () => {
  const proc = Bun.spawn(["bun", "test/support/serve.ts", "--model", "demo", "--window", "tiny=10"], { stdout: "pipe", stderr: "pipe" });
  try {
    const url = await firstLine(proc.stdout);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const frames = await streamFrames(url, { model: "gpt-5", input: [userMessage("summarise my notes")] });
    const call = frames.at(-1)!.data.response.output.find((it: any) => it.type === "function_call");
    expect([call.name, JSON.parse(call.arguments)]).toEqual(["glob", { pattern: "notes/*.txt" }]);
    const tooLong = await postResponses(url, { model: "tiny", input: [userMessage("x".repeat(200))] });
    expect((await jsonOf(tooLong)).error.code).toBe("context_length_exceeded");
  } finally {
    proc.kill();
    await proc.exited;
  }
});

test("serve.ts refuses an unknown model with a one-line error", async () => {
  const proc = Bun.spawn(["bun", "test/support/serve.ts", "--model", "nope"], { stdout: "pipe", stderr: "pipe" });
  expect(await proc.exited).toBe(2);
  expect(await new Response(proc.stderr).text()).toBe("serve: unknown --model 'nope'; use one of: demo, echo, shell\n");
});
