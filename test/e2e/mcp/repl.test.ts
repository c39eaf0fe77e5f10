/**
 * The REPL and a project's `.mcp.json`: it asks before starting a server the project brings, keeps the
 * yes for that exact definition, asks again once it changed; `/mcp` shows the servers as they stand.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { toolServer } from "../../support/mcp-run.ts";
import { HOSTILE } from "../../support/mcp-servers.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { sequenceModel, visibleOutputs } from "../../support/scripts.ts";

let server: StrictServer;
const home = tempDir("mcp-repl-home");
const project = tempDir("mcp-repl-project");
const CALL = { name: "mcp__proj__t1", arguments: { xs: ["from the model"] } };
beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "test-mcp": sequenceModel([CALL], (input) => `the tool said: ${visibleOutputs(input).at(-1)?.output}`),
      "test-hang": sequenceModel([{ name: "mcp__h__hang", arguments: {} }], "never reached"),
    },
  });
});
afterAll(async () => {
  await server.stop();
  for (const dir of [home, project]) rmSync(dir, { recursive: true, force: true });
});

const QUESTION = '.mcp.json asks to start the MCP server "proj": ';
const repl = () =>
  spawnPty([BINARY], { cwd: project, env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url }, cols: 160, rows: 40 });
/** `/mcp` until its table shows `pattern` (a server still starting says so first). */
async function mcpShows(pty: ReturnType<typeof repl>, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const mark = pty.mark();
    await pty.type("/mcp", 1);
    pty.write(keys.enter);
    await pty.waitFor(/› $/, { since: mark, timeoutMs: 5000 });
    if (pattern.test(pty.output().slice(mark))) return;
    await Bun.sleep(250);
  }
  throw new Error(`/mcp never showed ${pattern}; screen:\n${pty.screen()}`);
}
/** A REPL in a fresh folder of its own, with `servers` in `--mcp-config s.json` and the extra arguments. */
function replWith(dir: string, servers: Record<string, unknown>, args: string[] = []) {
  writeFileSync(join(dir, "s.json"), JSON.stringify({ mcpServers: servers }));
  return spawnPty([BINARY, "--mcp-config", "s.json", ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, SHIRO_HOME: join(dir, "home"), OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url },
    cols: 160,
    rows: 40,
  });
}
const define = (args: (string | number)[]) => writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { proj: toolServer(args) } }));

test("asked once for a definition, kept by its hash, asked again when it changes", async () => {
  define([3]);
  const first = repl();
  await first.waitFor(QUESTION, { timeoutMs: 8000 });
  expect(first.screen()).toContain(`${QUESTION}${process.execPath} `);
  first.write("y");
  // Said once as it arrives, while the person may be typing.
  await first.waitFor('· MCP server "proj" is up: 3 tools', { timeoutMs: 8000 });
  await first.waitFor(/› $/, { timeoutMs: 5000 });
  await mcpShows(first, /proj +connected +3 tools +tool-server 1 \(2025-11-25\)/);
  first.write(keys.ctrlD);
  expect(await first.exited).toBe(0);
  expect(JSON.parse(readFileSync(join(home, "approvals.json"), "utf8")).approvals).toMatchObject([{ kind: "mcp-server", subject: "proj" }]);

  const again = repl();
  await again.waitFor(/› $/, { timeoutMs: 8000 });
  await mcpShows(again, /proj +connected/);
  expect(again.screen()).not.toContain(QUESTION);
  // Its tool asks like a command: "always" answers for the tool, for the session.
  await again.type("/model test-mcp --force", 1);
  again.write(keys.enter);
  await again.waitFor(/› $/, { timeoutMs: 5000 });
  await again.type("use the tool", 1);
  again.write(keys.enter);
  await again.waitFor('? mcp__proj__t1 {"xs":["from the model"]}', { timeoutMs: 8000 });
  await again.waitFor("[a]lways for *: ", { timeoutMs: 3000 });
  again.write("y");
  again.write(keys.enter);
  await again.waitFor('the tool said: t1 got {"xs":["from the model"]}', { timeoutMs: 8000 });
  again.write(keys.ctrlD);
  expect(await again.exited).toBe(0);

  define([4]);
  const changed = repl();
  await changed.waitFor(QUESTION, { timeoutMs: 8000 });
  changed.write("n");
  await changed.waitFor('MCP server "proj" not started (asked again next time)', { timeoutMs: 5000 });
  await changed.type("/mcp", 1);
  changed.write(keys.enter);
  await changed.waitFor("no MCP servers", { timeoutMs: 5000 });
  changed.write(keys.ctrlD);
  expect(await changed.exited).toBe(0);
}, 60_000);

test("a server still starting holds up no prompt (it is not required): the request goes without it, /mcp says it is starting", async () => {
  const dir = tempDir("mcp-repl-starting");
  const sent = server.requests.length;
  // It never answers initialize: only a REPL that does not wait for it can send anything before its 60 s are up.
  const pty = replWith(dir, { mute: { command: process.execPath, args: [HOSTILE, "silent"], startupTimeout: 60 } });
  try {
    await pty.waitFor(/› $/, { timeoutMs: 8000 });
    await pty.type("hello while it starts", 1);
    pty.write(keys.enter);
    await pty.waitFor("You said: hello while it starts", { timeoutMs: 8000 });
    expect(server.requests.slice(sent).some((r) => r.body?.tools?.some((t: any) => t.name.startsWith("mcp__")))).toBe(false);
    await mcpShows(pty, /mute +starting/);
    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

test("Esc during a call that never answers: the call ends as an error result and the REPL is back at its prompt", async () => {
  const dir = tempDir("mcp-repl-esc");
  const pty = replWith(dir, { h: { command: process.execPath, args: [HOSTILE, "plain"], required: true } }, ["--allow", "mcp__h__*", "-m", "test-hang"]);
  try {
    await pty.waitFor(/› $/, { timeoutMs: 8000 });
    await pty.type("wait for it", 1);
    pty.write(keys.enter);
    await pty.waitFor("running mcp__h__hang", { timeoutMs: 8000 });
    pty.write(keys.esc);
    await pty.waitFor(/› $/, { since: pty.mark(), timeoutMs: 5000 });
    pty.write(keys.ctrlD);
    await pty.exited;
    const sessions = join(dir, "home", "sessions");
    const log = readFileSync(join(sessions, readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!), "utf8");
    const result = log.trim().split("\n").map((l) => JSON.parse(l)).find((e) => e.type === "result");
    expect(result).toMatchObject({ isError: true, output: "mcp__h__hang was cancelled by the user (the server was told to stop)" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
