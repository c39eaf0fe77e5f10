import { expect, test } from "bun:test";
import { join } from "node:path";

// `shiro --version` and other commands that never call the model must not pay for loading the SDK.
test("importing the wire modules does not load the openai SDK; the first model call does", async () => {
  const root = join(import.meta.dir, "..", "..", "..");
  const script = `
    const loaded = () => Object.keys(require.cache).some((k) => k.includes("node_modules/openai/"));
    const { createOpenAIStream } = await import("./src/wire/openai-stream.ts");
    await import("./src/wire/build-request.ts");
    await import("./src/wire/assemble-response.ts");
    const before = loaded();
    const stream = createOpenAIStream({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", idleTimeoutMs: 5000 });
    for await (const _ of stream({ model: "gpt-5", input: [], stream: true }, new AbortController().signal));
    console.log(JSON.stringify({ before, after: loaded() }));
  `;
  const proc = Bun.spawn(["bun", "-e", script], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  expect(JSON.parse(out)).toEqual({ before: false, after: true });
});
