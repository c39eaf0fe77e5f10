import { afterAll, beforeAll, expect, test } from "bun:test";
import { BINARY } from "../../support/binary.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { echoModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "echo-model": echoModel } });
});
afterAll(() => server.stop());

test("a line typed just as a turn ends is submitted as typed, not with its start moved to the end", async () => {
  const home = tempDir("home");
  const env = { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: server.url, NO_COLOR: "1" };
  await using pty = spawnPty([BINARY, "-m", "echo-model"], { cwd: tempDir("proj"), env });
  await pty.waitFor("› ", { timeoutMs: 5_000 });
  // Typing starts when the answer shows, so the first keys land before the prompt is redrawn.
  for (let i = 0; i < 5; i++) {
    await pty.type(`hello ${i}`, 1);
    pty.write(keys.enter);
    await pty.waitFor(`You said: hello ${i}`, { timeoutMs: 5_000 });
    const since = pty.mark();
    await pty.type("/cost", 1);
    pty.write(keys.enter);
    await pty.waitFor("cost: unknown", { since, timeoutMs: 5_000 });
  }
  const prompts = server.requests.map((r) => r.body.input.at(-1).content[0].text);
  expect(prompts).toEqual(["hello 0", "hello 1", "hello 2", "hello 3", "hello 4"]);
  pty.write(keys.ctrlD);
  expect(await pty.exited).toBe(0);
}, 30_000);
