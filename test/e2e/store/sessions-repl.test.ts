import { afterAll, beforeAll, expect, test } from "bun:test";
import { BINARY } from "../../support/binary.ts";
import { keys, spawnPty, type Pty } from "../../support/pty.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { echoModel } from "../../support/scripts.ts";
import { itemSummary, loadAll, sessionFiles } from "../../support/session-runs.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { sessionTotals } from "../../../src/pricing/session-totals.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "echo-model": echoModel } });
});
afterAll(() => server.stop());

const envFor = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  SHIRO_HOME: home,
  OPENAI_API_KEY: "test-key-not-a-secret",
  OPENAI_BASE_URL: server.url,
  NO_COLOR: "1",
});

/** Types a line once the prompt is back and returns what the screen shows after it, up to the next prompt. */
async function enter(pty: Pty, line: string, expected: string | RegExp): Promise<string> {
  const since = pty.mark();
  await pty.type(line, 1);
  pty.write(keys.enter);
  await pty.waitFor(expected, { since, timeoutMs: 5_000 });
  return pty.waitFor(/[\s\S]*\n› $/, { since, timeoutMs: 5_000 });
}

const lastInput = () => itemSummary(server.requests.at(-1)!.body.input);

test("REPL: -c and -r continue a session; /cost, /sessions, /clear, /save, /resume, /compact survives a restart", async () => {
  const home = tempDir("home");
  const cwd = tempDir("proj");
  const first = await runShiro(["-p", "--json", "-m", "echo-model", "first chat"], { cwd, home, env: envFor(home) });
  const firstId = JSON.parse(first.stdout.trim().split("\n").at(-1)!).sessionId as string;

  {
    await using pty = spawnPty([BINARY, "-c"], { cwd, env: envFor(home) });
    await pty.waitFor("› ", { timeoutMs: 5_000 });
    await enter(pty, "second line", "You said: second line");
    expect(lastInput()).toEqual(["user: first chat", "assistant: You said: first chat", "user: second line"]);
    expect(server.requests.at(-1)!.body.model).toBe("echo-model");

    const cost = await enter(pty, "/cost", "cost:");
    await enter(pty, "/save", `saved ${firstId}`);
    const [saved] = await loadAll(home);
    const { usage } = sessionTotals(saved!.messages);
    expect(cost).toContain(`tokens: ${usage.inputTokens.toLocaleString("en-US")} in (${usage.cachedTokens.toLocaleString("en-US")} cached) · ${usage.outputTokens.toLocaleString("en-US")} out`);
    expect(cost).toContain("cost: unknown (no price for echo-model)");

    const listed = await enter(pty, "/sessions", "first chat");
    const row = listed.split("\n").find((l) => l.includes("first chat"))!;
    expect(row).toMatch(/first chat\s+answered\s+4 msgs\s+\S+ tok\s+\?$/);
    const shownId = row.split(" ")[0]!;
    expect(firstId.startsWith(shownId)).toBe(true);

    await enter(pty, "/clear", "new session");
    await enter(pty, "fresh start", "You said: fresh start");
    expect(lastInput()).toEqual(["user: fresh start"]);
    await enter(pty, "/save", "saved ");
    expect(sessionFiles(home)).toHaveLength(2);

    await enter(pty, `/resume ${shownId}`, "resumed");
    expect(pty.screen()).toContain("· 4 messages · echo-model");
    await enter(pty, "back again", "You said: back again");
    expect(lastInput()).toEqual([
      "user: first chat",
      "assistant: You said: first chat",
      "user: second line",
      "assistant: You said: second line",
      "user: back again",
    ]);
    await enter(pty, "/resume zzzz", 'no session matches "zzzz"');
    await enter(pty, "/compact", "compacted: the next request starts from");
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
  }
  const sessions = await loadAll(home);
  expect(sessions.find((s) => s.id === firstId)!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant", "compaction"]);

  {
    await using pty = spawnPty([BINARY, "-r", firstId.slice(0, 13)], { cwd, env: envFor(home) });
    await pty.waitFor("› ", { timeoutMs: 5_000 });
    await enter(pty, "via resume", "You said: via resume");
    // The compaction made before exit is restored: the request starts from its summary.
    expect(lastInput()).toHaveLength(2);
    expect(lastInput()[0]).toStartWith("user: Summary of the conversation so far");
    expect(lastInput()[1]).toBe("user: via resume");
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
  }
}, 30_000);
