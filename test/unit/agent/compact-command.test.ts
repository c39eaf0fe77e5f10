/**
 * `/compact` through a real agent (startMainAgent) against the strict local API: a summary call that
 * fails or says nothing usable leaves the session log byte-identical; a good one appends a marker.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseFlags } from "../../../src/cli/args.ts";
import { loadConfig } from "../../../src/cli/config.ts";
import type { Agent } from "../../../src/agent/agent.ts";
import { startMainAgent } from "../../../src/agent/start-main-agent.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const GOOD = "## Goal\nRead a.txt and report.\n\n## Files touched\nnone\n\n## Decisions\nnone\n\n## Commands and outcomes\n- read_file a.txt → ok\n\n## What remains\nnothing";
let summaryReply = "";
const reader = sequenceModel([{ name: "read_file", arguments: { path: "a.txt" } }], "a.txt says hello");

let server: StrictServer;
beforeAll(async () => {
  // Asked without tools (the summary request), it answers whatever the test set; otherwise it reads a.txt.
  server = await startStrictServer({ models: { "gpt-5": (req) => (req.tools.length === 0 ? { text: summaryReply } : reader(req)) } });
});
afterAll(() => server.stop());

async function workedSession(configFile: object = {}): Promise<{ agent: Agent; file: string }> {
  const home = tempDir("home");
  writeFileSync(join(home, "config.json"), JSON.stringify(configFile));
  const cwd = tempDir("proj");
  writeFileSync(join(cwd, "a.txt"), "hello\n");
  const flags = { ...parseFlags(["--yolo"]), print: true };
  const config = await loadConfig(flags, { SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "test-key-not-a-secret" });
  const { agent } = await startMainAgent({ flags, config: { ...config, apiKey: config.apiKey! }, cwd, warn: () => {} });
  for await (const event of agent.runTurn("Read a.txt and tell me what it says.", new AbortController().signal))
    if (event.type === "end") expect(event.status).toBe("done");
  return { agent, file: join(home, "sessions", `${agent.session.id}.jsonl`) };
}

describe("/compact", () => {
  const unusable = [
    ["the summary call fails (HTTP 400)", () => server.inject({ status: 400 }), /^could not compact: the model call failed: .+; the transcript is unchanged$/],
    ["the summary is empty", () => void (summaryReply = ""), /^could not compact: the model answered nothing; the transcript is unchanged$/],
    ["the summary is garbage (no Goal section)", () => void (summaryReply = "Sure! ".repeat(40)), /^could not compact: the model's answer was no summary \(too short, or without its Goal section\); the transcript is unchanged$/],
  ] as const;
  for (const [what, arrange, why] of unusable)
    test(`${what}: the transcript on disk stays byte-identical and the person is told why`, async () => {
      const { agent, file } = await workedSession();
      const before = readFileSync(file);
      const messages = structuredClone(agent.session.messages);
      const calls = server.requests.length;
      arrange();
      const result = await agent.compact("", new AbortController().signal);
      expect(server.requests.length).toBe(calls + 1);
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(why);
      await Bun.sleep(5); // a save would show as a new updatedAt
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(agent.session.messages).toEqual(messages);
    });

  test("the summary call uses the configured reasoning effort, like every other call", async () => {
    const { agent } = await workedSession({ reasoningEffort: "low" });
    summaryReply = GOOD;
    await agent.compact("", new AbortController().signal);
    expect(server.requests.at(-1)!.body.reasoning).toEqual({ effort: "low", summary: "auto" });
  });

  test("a usable summary is appended as a marker and saved; the next request starts from it", async () => {
    const { agent, file } = await workedSession();
    const before = readFileSync(file, "utf8");
    summaryReply = GOOD;
    const result = await agent.compact("the file contents", new AbortController().signal);
    expect(result.ok).toBe(true);
    expect(server.requests.at(-1)!.raw).toContain("Pay particular attention to: the file contents");
    // The log only grew: what was there is untouched, and the summary is one more line.
    const after = readFileSync(file, "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(JSON.parse(after.slice(before.length))).toMatchObject({ type: "compaction", summary: GOOD });
    const next = server.requests.length;
    for await (const _ of agent.runTurn("Again, please.", new AbortController().signal));
    const input = server.requests[next]!.body.input;
    expect(input.map((i: any) => i.content[0].text)).toEqual([`Summary of the conversation so far (earlier messages were compacted into it):\n\n${GOOD}`, "Again, please."]);
  });
});
