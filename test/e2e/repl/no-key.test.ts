/**
 * Issue 32: the REPL opens without an API key (its commands, sessions and undo need none) and says
 * how to set one; a prompt is then refused with that line and nothing reaches the server. The
 * control: the same REPL with a key sends the prompt.
 */
import { expect, test } from "bun:test";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer } from "../../support/strict-server.ts";

test("without a key the REPL opens, says how to set one, answers /help, and refuses a prompt without sending it; with one, the prompt is sent", async () => {
  const server = await startStrictServer({ defaultModel: () => ({ text: "hello back" }) });
  try {
    {
      await using repl = await startRepl({ cwd: tempDir("no-key"), baseUrl: server.url, env: { OPENAI_API_KEY: undefined } });
      expect(repl.screen()).toContain("! no API key: export OPENAI_API_KEY=");
      let mark = repl.mark();
      await repl.send("/help");
      await repl.waitFor("/undo", { since: mark });
      mark = repl.mark();
      await repl.send("hello there");
      await repl.waitFor("OPENAI_API_KEY is not set: export it and start shiro again", { since: mark, timeoutMs: 8000 });
      await repl.idle(mark);
      expect(server.requests).toHaveLength(0);
      expect(await repl.quit()).toBe(0);
    }
    await using keyed = await startRepl({ cwd: tempDir("with-key"), baseUrl: server.url });
    expect(keyed.screen()).not.toContain("no API key");
    const mark = keyed.mark();
    await keyed.send("hello there");
    await keyed.waitFor("hello back", { since: mark, timeoutMs: 8000 });
    expect(server.requests).toHaveLength(1);
  } finally {
    await server.stop();
  }
});
