import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { savedSessions, startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// Ctrl-D while a turn runs or a question waits: shiro quits at once, and the session keeps what happened.
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "test-writer": sequenceModel([{ name: "write_file", arguments: { path: "a.txt", content: "hello\n" } }], "written"),
      "test-slow": () => ({ text: "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu" }),
    },
  });
});
afterAll(() => server.stop());

const since = (n: number) => server.requests.slice(n);

describe("quitting mid-turn", () => {
  test("Ctrl-D during a turn quits with 0: the stream is cancelled and the queued line is never sent", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url, args: ["-m", "test-slow"] });
    server.inject({ delayMs: 10_000, afterEventCount: 5 });
    const before = server.requests.length;
    await repl.send("tell me a long story");
    await repl.waitFor("Alpha");
    await repl.send("queued then dropped");
    await repl.waitFor("queued (1)");
    // (The stream stalls for 10 s: that the session ends "aborted", not answered, says it was cancelled.)
    expect(await repl.quit()).toBe(0);
    await Bun.sleep(200);
    expect(since(before)).toHaveLength(1);
    expect(repl.screen()).not.toContain("error");
    const [session] = savedSessions(repl.home);
    expect(session.messages.at(-1)).toMatchObject({ role: "assistant", incomplete: "aborted" });
  });

  test("Ctrl-D while a write waits for approval quits with 0; nothing is written", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-m", "test-writer"] });
    await repl.send("write the first file");
    await repl.waitFor(/allow\? .*a\.txt: $/);
    expect(await repl.quit()).toBe(0);
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
  });
});
