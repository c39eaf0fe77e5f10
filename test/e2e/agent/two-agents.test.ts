/**
 * Services built once, agents made from them (docs/architecture.md): two agents in one process, each
 * with its own session log, instructions and tools, run a scripted turn each against the strict
 * server. The requests carry each one's own prompt and tools; the logs are apart; the one checkpoint
 * store undoes either's change; the one approvals file serves both.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../../../src/agent/create-agent.ts";
import type { Agent } from "../../../src/agent/agent.ts";
import { parseFlags } from "../../../src/cli/args.ts";
import { loadConfig } from "../../../src/cli/config.ts";
import { createServices, type Services } from "../../../src/services/services.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const REVIEWER = "You are a reviewer. Read what you are asked to and write your findings to review.md, nothing else.";
const writer = sequenceModel([{ name: "write_file", arguments: { path: "notes.md", content: "# Notes\n" } }], "wrote notes.md");
const reviewer = sequenceModel([{ name: "read_file", arguments: { path: "notes.md" } }, { name: "write_file", arguments: { path: "review.md", content: "looks fine\n" } }], "reviewed");

let server: StrictServer;
let services: Services;
let home: string;
let project: string;
beforeAll(async () => {
  // One endpoint for both: which agent asks is told by its instructions alone.
  server = await startStrictServer({ models: { "gpt-5": (req) => (req.instructions?.startsWith(REVIEWER) ? reviewer(req) : writer(req)) } });
  home = tempDir("home");
  project = tempDir("proj");
  mkdirSync(join(project, ".shiro", "commands"), { recursive: true });
  writeFileSync(join(project, ".shiro", "commands", "recap.md"), "Say what changed today.\n");
  const flags = { ...parseFlags(["--yolo"]), print: true };
  const config = await loadConfig(flags, { SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "test-key-not-a-secret" });
  services = await createServices({ flags, config: { ...config, apiKey: config.apiKey! }, cwd: project, warn: () => {} });
});
afterAll(async () => {
  await services.close();
  await server.stop();
});

async function turn(agent: Agent, text: string): Promise<string> {
  let status = "";
  for await (const event of agent.runTurn(text, new AbortController().signal)) if (event.type === "end") status = event.status;
  return status;
}

const logOf = (agent: Agent) => readFileSync(join(home, "sessions", `${agent.session.id}.jsonl`), "utf8");

test("two agents from one set of services: their own instructions, tools and logs; one checkpoint store, one approvals file", async () => {
  const model = "gpt-5";
  const main = await createAgent(services, { session: await services.sessions.create({ cwd: project, model }) });
  const child = await createAgent(services, { session: await services.sessions.create({ cwd: project, model }), instructions: REVIEWER, tools: (name) => name === "read_file" || name === "write_file", maxSteps: 5 });

  expect(await turn(main, "Start the notes.")).toBe("done");
  expect(await turn(child, "Review the notes.")).toBe("done");
  expect(readFileSync(join(project, "review.md"), "utf8")).toBe("looks fine\n");

  // What crossed the wire: each agent's own instructions and tools, from its first request to its last.
  const bodies = server.requests.filter((r) => r.path.endsWith("/responses")).map((r) => r.body);
  const mains = bodies.filter((b) => !b.instructions.startsWith(REVIEWER));
  const childs = bodies.filter((b) => b.instructions.startsWith(REVIEWER));
  expect([mains.length, childs.length]).toEqual([2, 3]);
  for (const body of mains) {
    expect(body.instructions).toStartWith("You are shiro");
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["read_file", "write_file", "bash", "todo_write"]));
    expect(body.input[0].content[0].text).toBe("Start the notes.");
  }
  for (const body of childs) {
    expect(body.tools.map((t: { name: string }) => t.name)).toEqual(["read_file", "write_file"]);
    expect(body.input[0].content[0].text).toBe("Review the notes.");
  }

  // Two logs, each of its own agent's turn only.
  expect(main.session.id).not.toBe(child.session.id);
  expect(logOf(main)).toContain("Start the notes.");
  expect(logOf(main)).not.toContain("Review the notes.");
  expect(logOf(child)).toContain("Review the notes.");
  expect(logOf(child)).not.toContain("Start the notes.");

  // One checkpoint store: either agent's turn is undone from it, the other's change stays.
  expect((await child.undo(undefined, false)).ok).toBe(true);
  expect(existsSync(join(project, "review.md"))).toBe(false);
  expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("# Notes\n");
  expect((await main.undo(undefined, false)).ok).toBe(true);
  expect(existsSync(join(project, "notes.md"))).toBe(false);
  expect(readdirSync(join(home, "checkpoints")).length).toBeGreaterThan(0);

  // One approvals file: a project command approved while one agent's turn is filled needs no second yes for the other's.
  const recap = (await services.commands.find("recap"))!;
  let asked = 0;
  const yes = async () => (asked++, true);
  const first = await services.commands.prepare(recap, "", { show: () => {}, confirm: yes, signal: new AbortController().signal, calls: main.commandCalls });
  const second = await services.commands.prepare(recap, "", { show: () => {}, signal: new AbortController().signal, calls: child.commandCalls });
  expect([first.ok, second.ok, asked]).toEqual([true, true, 1]);
  expect(JSON.parse(readFileSync(join(home, "approvals.json"), "utf8")).approvals).toEqual([expect.objectContaining({ kind: "command", subject: "recap" })]);

  main.close();
  child.close();
});
