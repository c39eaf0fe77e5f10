import { expect, test } from "bun:test";
import { jsonOf, postResponses, streamFrames, userMessage } from "../../support/sse-client.ts";

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

/** serve.ts run to its end (it serves only when its arguments are good). */
async function refused(...args: string[]) {
  const proc = Bun.spawn(["bun", "test/support/serve.ts", ...args], { stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr };
}

test("serve.ts refuses an unknown model, option or port with a one-line error", async () => {
  expect(await refused("--model", "nope")).toEqual({ code: 2, stdout: "", stderr: "serve: unknown --model 'nope'; use one of: demo, echo, shell (see --help)\n" });
  expect(await refused("--prot", "8080")).toEqual({ code: 2, stdout: "", stderr: "serve: Unknown option '--prot' (see --help)\n" });
  expect(await refused("--port", "http")).toEqual({ code: 2, stdout: "", stderr: "serve: --port must be a whole number from 1 to 65535, got 'http' (see --help)\n" });
});

test("serve.ts --help says how to run it: every option, and what it prints", async () => {
  const help = await refused("--help");
  expect([help.code, help.stderr]).toEqual([0, ""]);
  expect(help.stdout).toStartWith("Usage: bun test/support/serve.ts ");
  for (const option of ["--model <name>", "--port <n>", "--pace <ms>", "--window <model=n>", "-h, --help"]) expect(help.stdout).toContain(option);
  expect(help.stdout).toContain("http://127.0.0.1:PORT/v1");
});

test("serve.ts --port listens where it is told; a port in use is one line saying so", async () => {
  // A port the system just handed out and nobody holds now.
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  const proc = Bun.spawn(["bun", "test/support/serve.ts", "--port", String(port)], { stdout: "pipe", stderr: "pipe" });
  try {
    const url = await firstLine(proc.stdout);
    expect(url).toBe(`http://127.0.0.1:${port}/v1`);
    const frames = await streamFrames(url, { model: "gpt-5", input: [userMessage("hello")] });
    expect(frames.at(-1)!.event).toBe("response.completed");
    const taken = await refused("--port", String(port));
    expect([taken.code, taken.stdout]).toEqual([2, ""]);
    expect(taken.stderr).toStartWith(`serve: cannot listen on 127.0.0.1:${port} (`);
    expect(taken.stderr.trim().split("\n")).toHaveLength(1);
  } finally {
    proc.kill();
    await proc.exited;
  }
});
