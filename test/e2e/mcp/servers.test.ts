/**
 * MCP servers as a run meets them: a project's `.mcp.json` only once approved (start-up itself:
 * mcp-print-startup.test.ts), a failing server's line redacted, a tool the API refuses dropped,
 * too many tools refused, `shiro mcp list|test`, and what the session log keeps.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { definitionHash } from "../../../src/store/approvals.ts";
import { boxedToolServer, everything, mcpJob, mcpToolsOf, TOOL_SERVER, toolServer } from "../../support/mcp-run.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { FINAL, scriptedJob } from "../../support/scripted-job.ts";
import { EVERYTHING } from "../../support/mcp-servers.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import { waitUntil } from "../../support/wait-until.ts";

const dirs: string[] = [];
const dir = (name: string) => {
  const made = tempDir(name);
  dirs.push(made);
  return made;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("config.json's mcpServers", () => {
  test("a server there is started for every run; a misspelt key is one line naming it and the key meant", async () => {
    const home = dir("mcp-config-home");
    const project = dir("mcp-config-project");
    writeFileSync(join(home, "config.json"), JSON.stringify({ mcpServers: { mine: { ...toolServer([1]), required: true } } }));
    const run = await scriptedJob([], { cwd: project, home });
    expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__mine__t1"]);
    writeFileSync(join(home, "config.json"), JSON.stringify({ mcpServers: { mine: { comand: "x" } } }));
    const typo = await runShiro(["-p", "hi"], { cwd: project, home });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('config.json does not match its schema at mcpServers.mine: unknown key "comand"; did you mean "command"?');
    writeFileSync(join(home, "config.json"), JSON.stringify({ mcpServers: { mine: { args: ["x"] } } }));
    const neither = await runShiro(["-p", "hi"], { cwd: project, home });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('mcpServers.mine in ');
    expect(neither.stderr).toContain('needs "command" (a program to run) or "url" (a Streamable HTTP endpoint)');
  }, 30_000);
});

describe("an HTTP server", () => {
  test("its bearer token comes from the variable config names, its headers' ${VAR} from the environment", async () => {
    const seen: Record<string, string | null>[] = [];
    const http = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        if (req.method !== "POST") return new Response(null, { status: 405 });
        seen.push({ auth: req.headers.get("authorization"), team: req.headers.get("x-team") });
        const m = (await req.json()) as { id?: number; method: string };
        if (m.id === undefined) return new Response(null, { status: 202 });
        const result = m.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "http-test" } } : m.method === "tools/list" ? { tools: [{ name: "hello", inputSchema: { type: "object" } }] } : {};
        return Response.json({ jsonrpc: "2.0", id: m.id, result });
      },
    });
    try {
      const run = await mcpJob([], {
        servers: { web: { type: "http", url: `http://127.0.0.1:${http.port}/mcp`, bearerTokenEnv: "WEB_MCP_TOKEN", headers: { "X-Team": "${TEAM_NAME}" }, required: true } },
        env: { WEB_MCP_TOKEN: "tok-web-123", TEAM_NAME: "blue" },
      });
      expect(run.code).toBe(0);
      expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__web__hello"]);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (const headers of seen) expect(headers).toEqual({ auth: "Bearer tok-web-123", team: "blue" });
    } finally {
      http.stop(true);
    }
  }, 30_000);
});

describe("a project's .mcp.json", () => {
  test("print mode skips it with one line until that exact definition is approved; a change is skipped again", async () => {
    const home = dir("mcp-home");
    const project = dir("mcp-project");
    const server = toolServer([1]);
    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { ...server, required: true } } }));
    const first = await scriptedJob([], { cwd: project, home });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      "! .mcp.json defines MCP server proj not approved as it stands: skipped (approve in an interactive shiro here, which asks, or pass --mcp-config .mcp.json to use the file as it is)\n",
    );
    expect(mcpToolsOf(first.requests[0]!.body)).toEqual([]);

    // What an interactive shiro keeps once the person said yes.
    const approve = (definition: unknown) =>
      writeFileSync(join(home, "approvals.json"), JSON.stringify({ version: 1, approvals: [{ kind: "mcp-server", root: realpathSync(project), subject: "proj", hash: definitionHash(definition), at: "2026-01-01T00:00:00Z" }] }));
    approve({ ...server, required: true });
    const approved = await scriptedJob([], { cwd: project, home });
    expect(approved.stderr).toBe("");
    expect(mcpToolsOf(approved.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__proj__t1"]);

    writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { proj: { ...server, args: [...server.args, "--delay", "1"], required: true } } }));
    const changed = await scriptedJob([], { cwd: project, home });
    expect(changed.stderr).toContain("defines MCP server proj not approved as it stands: skipped");
    expect(mcpToolsOf(changed.requests[0]!.body)).toEqual([]);
  }, 60_000);
});

describe("a server's sandbox", () => {
  // A server that tries to write the project as it starts, then serves one tool.
  // A copy of the tool server in the project: the sandbox hides the rest of /tmp, where this checkout may be.
  const writer = (extra: Record<string, unknown>) => ({ command: "sh", args: ["-c", `touch from-server.txt 2>/dev/null; exec ${process.execPath} ./tool-server.ts 1`], required: true, ...extra });
  test.each([
    ["outside the sandbox by default", {}, true],
    ["read-only: it starts, and cannot write the project", { sandbox: "read-only" }, false],
    ["workspace-write: it may", { sandbox: "workspace-write" }, true],
  ] as const)("%s", async (_, extra, writes) => {
    let wrote = false;
    const run = await mcpJob([], { servers: { w: writer(extra) }, project: (dir) => copyFileSync(TOOL_SERVER, join(dir, "tool-server.ts")), after: (dir) => (wrote = existsSync(join(dir, "from-server.txt"))) });
    expect(run.stderr).toBe("");
    expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__w__t1"]);
    expect(wrote).toBe(writes);
  }, 30_000);
});

describe("a failure line hides secrets", () => {
  test("a server that prints its token to stderr and exits: the line and the log show it redacted", async () => {
    const home = dir("mcp-secret-home");
    const secret = "tok-9f8e7d6c5b4a39281706";
    const run = await mcpJob([], {
      servers: { leaky: { command: "sh", args: ["-c", 'echo "starting with $SVC_TOKEN" >&2; exit 1'], env: { SVC_TOKEN: "${SVC_TOKEN}" } } },
      env: { SVC_TOKEN: secret },
      home,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('! MCP server "leaky" did not start: ');
    expect(run.stderr).toContain("starting with ");
    expect(run.stderr).not.toContain(secret);
    const sessions = join(home, "sessions");
    expect(readFileSync(join(sessions, readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!), "utf8")).not.toContain(secret);
  }, 30_000);
});

describe("tools the API would refuse", () => {
  test("a schema the API refuses: that tool is dropped with a notice, the request sent again once, the others kept", async () => {
    const run = await mcpJob([{ name: "mcp__srv__t1", arguments: { xs: ["a"] } }], { servers: { srv: toolServer([2, "--bad", "t2"], { required: true }) }, args: ["--allow", "mcp__srv__*"] });
    expect(run.code).toBe(0);
    expect(run.requests[0]!.status).toBe(400);
    expect(JSON.parse(run.requests[0]!.raw).tools.map((t: any) => t.name)).toContain("mcp__srv__t2");
    expect(mcpToolsOf(run.requests[1]!.body).map((t) => t.name)).toEqual(["mcp__srv__t1"]);
    expect(run.requests.slice(1).every((r) => r.status === 200)).toBe(true);
    expect(run.stderr).toContain("! the API refused the schema of mcp__srv__t2 (Invalid schema for function 'mcp__srv__t2': In context=('properties', 'xs'), array schema missing items.); it is left out for the rest of this run and the request sent again");
    expect(run.outputs[0]!.output).toBe('t1 got {"xs":["a"]}');
  }, 30_000);

  test("more than 128 tools in all: none is offered, one line names the servers and enabledTools", async () => {
    const run = await mcpJob([], { servers: { a: toolServer([100], { required: true }), b: toolServer([40], { required: true }) } });
    expect(run.code).toBe(0);
    expect(mcpToolsOf(run.requests[0]!.body)).toEqual([]);
    expect(run.stderr).toContain('! MCP servers offer 140 tools (a (100), b (40)), over the 128 a request can carry well; none is offered — name the ones wanted with "enabledTools"');
  }, 30_000);

  test("more than 40: a warning, and enabledTools keeps only those named", async () => {
    const run = await mcpJob([], { servers: { a: toolServer([41], { required: true }), b: toolServer([5], { required: true, enabledTools: ["t2", "t4"] }) } });
    expect(run.stderr).toContain("! MCP servers offer 43 tools; over 40 crowd the model's context");
    const names = mcpToolsOf(run.requests[0]!.body).map((t) => t.name);
    expect(names).toHaveLength(43);
    expect(names.slice(-2)).toEqual(["mcp__b__t2", "mcp__b__t4"]);
  }, 30_000);
});

describe("the tool list changes only when a server's does", () => {
  test("list_changed: a later request carries the new tools, and the session log the new hash", async () => {
    const home = dir("mcp-grow-home");
    // The list is fetched again once the server says it changed: a request or two later it is there.
    const run = await mcpJob([{ name: "mcp__g__t1", arguments: {} }, { name: "mcp__g__t1", arguments: { xs: [] } }], { servers: { g: toolServer([1, "--grow"], { required: true }) }, args: ["--allow", "mcp__g__*"], home });
    expect(run.code).toBe(0);
    expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__g__t1"]);
    expect(mcpToolsOf(run.requests[2]!.body).map((t) => t.name)).toEqual(["mcp__g__t1", "mcp__g__t2", "mcp__g__t3"].slice(0, mcpToolsOf(run.requests[2]!.body).length));
    expect(mcpToolsOf(run.requests[2]!.body).length).toBeGreaterThan(1);
    const log = readdirSync(join(home, "sessions")).find((f) => f.endsWith(".jsonl"))!;
    const events = readFileSync(join(home, "sessions", log), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "mcp");
    expect(events.map((e) => e.tools)).toEqual([1, 2, 3]);
    // Each event's hash is that of the list as a request then carried it.
    const last = mcpToolsOf(run.requests.at(-1)!.body);
    expect(events.find((e) => e.tools === last.length).toolsHash).toBe(definitionHash(last));
  }, 30_000);
});

describe("where people look", () => {
  test("shiro mcp list shows each server's state; shiro mcp test gives a verdict and its exit code", async () => {
    const project = dir("mcp-list");
    writeFileSync(join(project, "s.json"), JSON.stringify({ mcpServers: { ok: toolServer([2]), broken: { command: "/nonexistent/mcp" }, boxed: boxedToolServer(project, [1], { sandbox: "read-only" }), deaf: toolServer([1, "--no-ping"], { startupTimeout: 1 }) } }));
    const list = await runShiro(["mcp", "list", "--mcp-config", "s.json"], { cwd: project });
    expect(list.code).toBe(0);
    const rows = list.stdout.trimEnd().split("\n");
    expect(rows[0]).toMatch(/^ok +connected +2 tools +tool-server 1 \(2025-11-25\)$/);
    expect(rows[1]).toMatch(/^broken +failed +MCP server "broken" did not start: /);
    expect(rows[2]).toMatch(/^boxed +connected +1 tools +tool-server 1 \(2025-11-25\)$/);
    const good = await runShiro(["mcp", "test", "ok", "--mcp-config", "s.json"], { cwd: project });
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^✓ ok: tool-server 1, protocol 2025-11-25, ping \d+ ms, 2 tools offered: mcp__ok__t1, mcp__ok__t2\n$/);
    // Started and listed, then deaf: the ping (given its startupTimeout) says it no longer answers.
    const deaf = await runShiro(["mcp", "test", "deaf", "--mcp-config", "s.json"], { cwd: project });
    expect(deaf.code).toBe(1);
    expect(deaf.stdout).toStartWith("✗ deaf: ");
    expect(deaf.stdout).toContain("ping");
    const bad = await runShiro(["mcp", "test", "broken", "--mcp-config", "s.json"], { cwd: project });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toStartWith('✗ broken: MCP server "broken" did not start: ');
    const usage = await runShiro(["mcp"], { cwd: project });
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("usage: shiro mcp list [--mcp-config <file>]… | shiro mcp test <name> [--mcp-config <file>]…") });
    const typo = await runShiro(["mcp", "test", "oka", "--mcp-config", "s.json"], { cwd: project });
    expect(typo).toMatchObject({ code: 2, stderr: expect.stringContaining('no MCP server "oka"; did you mean "ok"?') });
  }, 30_000);

  test("the session log says which server answered, its protocol version and the hash of the tools it offered", async () => {
    const home = dir("mcp-log-home");
    const run = await mcpJob([], { servers: { srv: toolServer([2], { required: true }) }, home });
    expect(run.code).toBe(0);
    const sessions = join(home, "sessions");
    const log = readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!;
    const events = readFileSync(join(sessions, log), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const mcp = events.find((e) => e.type === "mcp");
    expect(mcp).toMatchObject({ type: "mcp", server: "srv", status: "connected", protocolVersion: "2025-11-25", serverInfo: { name: "tool-server", version: "1" }, tools: 2, toolsHash: definitionHash(mcpToolsOf(run.requests[0]!.body)) });
    const inspect = await runShiro(["inspect", log.replace(".jsonl", "")], { cwd: home, home });
    expect(inspect.stdout).toContain(`\nmcp      srv 2025-11-25 2 tools (${mcp.toolsHash.slice(0, 8)})\n`);
  }, 30_000);
});

describe("no server outlives shiro", () => {
  const running = (marker: string) => Bun.spawnSync(["pgrep", "-f", marker]).stdout.toString().split("\n").filter(Boolean);

  test("a run stopped while a server is still starting (--timeout): the connected server and that one are both gone", async () => {
    const marker = `mcp-marker-${process.pid}-${Date.now()}`;
    const run = await mcpJob([], { servers: { up: toolServer([1, marker]), starting: toolServer([1, "--delay", 60_000, marker], { startupTimeout: 60 }) }, args: ["--timeout", "1"] });
    expect(run.code).toBe(3);
    expect(run.requests).toHaveLength(0);
    await waitUntil(() => running(marker).length === 0, "both servers gone", 3000);
  }, 30_000);

  test("SIGTERM mid-call: shiro stops and its server goes with it", async () => {
    const marker = `mcp-marker-${process.pid}-${Date.now()}-term`;
    const project = dir("mcp-term");
    writeFileSync(join(project, "s.json"), JSON.stringify({ mcpServers: { ev: { ...everything({ args: [EVERYTHING, "stdio", marker] }) } } }));
    const server = await startStrictServer({ defaultModel: sequenceModel([{ name: "mcp__ev__trigger-long-running-operation", arguments: { duration: 30, steps: 30 } }], FINAL) });
    try {
      const run = await runShiro(["-p", "--mcp-config", "s.json", "--allow", "mcp__ev__*", marker], {
        cwd: project,
        env: { OPENAI_BASE_URL: server.url },
        stdin: async (stdin, live) => {
          await stdin.end();
          await live.waitFor(() => server.requests.length > 0 && running(marker).length >= 2, 15_000);
          await Bun.sleep(300);
          const shiro = running(`${marker}$`).find((pid) => Bun.spawnSync(["ps", "-o", "args=", pid]).stdout.toString().includes("shiro"));
          process.kill(Number(shiro), "SIGTERM");
        },
      });
      expect(run.code).toBe(143);
      await waitUntil(() => running(marker).length === 0, "the server gone", 3000);
    } finally {
      await server.stop();
    }
  }, 40_000);
});

