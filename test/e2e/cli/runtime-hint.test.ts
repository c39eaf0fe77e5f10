/**
 * A connection the far end closes at once makes Bun's fetch fail with advice for its programmer ("pass
 * `verbose: true` in the second argument to fetch()"). Through the binary: the model call's retry line
 * and the registry's refusal say what happened, without that advice.
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";

// Accepts each connection and closes it before a byte is answered.
const closer = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: (socket) => void socket.end(), data() {} } });
const dirs: string[] = [];
afterAll(() => {
  closer.stop(true);
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});
const dir = (prefix: string) => (dirs.push(tempDir(prefix)), dirs.at(-1)!);

test("a model call cut off: the retry line names the reset, not the runtime's verbose option", async () => {
  const home = dir("hint-home");
  const proc = Bun.spawn([BINARY, "-p", "hi"], {
    cwd: dir("hint-proj"),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, NO_COLOR: "1", OPENAI_BASE_URL: `http://127.0.0.1:${closer.port}/v1` },
  });
  let stderr = "";
  const decoder = new TextDecoder();
  for await (const chunk of proc.stderr) {
    stderr += decoder.decode(chunk, { stream: true });
    if (stderr.includes("\n")) break; // the first retry's line is whole
  }
  proc.kill("SIGTERM");
  await proc.exited;
  const line = stderr.split("\n")[0]!;
  expect(line).toMatch(/^! retrying model call \(attempt 2 of 6\) in [\d.]+ s: the connection to http:\/\/127\.0\.0\.1:\d+\/v1 broke: ECONNRESET: The socket connection was closed unexpectedly\.?$/);
});

test("a registry that hangs up: one line saying so, without the runtime's verbose option", async () => {
  const home = dir("hint-registry");
  writeFileSync(join(home, "config.json"), JSON.stringify({ registryUrl: `https://127.0.0.1:${closer.port}/index.json` }));
  const r = await runShiro(["registry", "list"], { cwd: home, home });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(`refused index https://127.0.0.1:${closer.port}/index.json: cannot fetch it: ECONNRESET: The socket connection was closed unexpectedly.\n`);
});
