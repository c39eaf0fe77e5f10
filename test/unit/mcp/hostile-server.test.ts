import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { connectMcpServer } from "../../../src/mcp/connect-server.ts";
import type { McpClient } from "../../../src/mcp/mcp-client.ts";
import type { McpError } from "../../../src/mcp/mcp-error.ts";
import { hostile, isGone } from "../../support/mcp-servers.ts";
import { groupMembers } from "../../support/process-group.ts";
import { waitUntil } from "../../support/wait-until.ts";

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
const connect = async (mode: string, startupTimeoutMs = 5_000) => {
  const client = await connectMcpServer(mode, hostile(mode), { startupTimeoutMs });
  open.push(client);
  return client;
};
/** The start-up's error and how long it took to come. */
async function failure(mode: string, startupTimeoutMs = 5_000): Promise<{ message: string; ms: number }> {
  const started = Date.now();
  const err = (await connect(mode, startupTimeoutMs).then(() => new Error("it started"), (e: McpError) => e)) as McpError;
  expect(err.name).toBe("McpError");
  expect(err.message).not.toContain("\n");
  return { message: err.message, ms: Date.now() - started };
}

describe("a hostile stdio server ends in one clear line, never a hang", () => {
  test("text on stdout is a protocol error naming the line", async () => {
    const { message } = await failure("stdout-text");
    expect(message).toBe('MCP server "stdout-text" did not start: it printed non-protocol text on stdout: Server starting on stdio (debug mode)');
  });

  test("no answer to initialize: the start-up time is up", async () => {
    const { message, ms } = await failure("silent", 800);
    expect(message).toBe('MCP server "silent" did not start: no answer to initialize within 0.8 s');
    expect(ms).toBeGreaterThanOrEqual(790);
  });

  test("an exit right after initialize names the code and the end of its stderr", async () => {
    const { message } = await failure("exit-after-init");
    expect(message).toBe('MCP server "exit-after-init" did not start: it exited with code 3; its stderr ends: fatal: could not open the database');
  });

  test("an error answer to initialize says so, with its code", async () => {
    const { message } = await failure("refuse-init");
    expect(message).toBe('MCP server "refuse-init" did not start: initialize failed: Unsupported protocol version (code -32602)');
  });

  test("a command that is not there", async () => {
    const err = (await connectMcpServer("gone", { kind: "stdio", command: "no-such-mcp-server", args: [], cwd: "/", env: { PATH: "/usr/bin:/bin" } }, { startupTimeoutMs: 5_000 }).catch((e) => e)) as McpError;
    expect(err.message).toBe('MCP server "gone" did not start: command not found: no-such-mcp-server (not on the PATH of the environment it is given)');
  });

  test("200 tools over four pages are all listed", async () => {
    const client = await connect("many-tools");
    expect(client.tools().map((t) => t.name)).toEqual(Array.from({ length: 200 }, (_, i) => `tool_${i}`));
  });

  test("a 2 MB result arrives whole", async () => {
    const client = await connect("plain");
    const result = await client.callTool("big", {});
    expect((result.content[0]!.text as string).length).toBe(2 * 1024 * 1024);
  });

  test("a schema without type is passed on as the server sent it", async () => {
    const client = await connect("plain");
    expect(client.tools().find((t) => t.name === "untyped")!.inputSchema).toEqual({ properties: { q: { type: "string" } }, required: ["q"] });
    expect((await client.callTool("untyped", { q: "x" })).content).toEqual([{ type: "text", text: "q=x" }]);
  });

  test("a changed tool list is fetched again and announced", async () => {
    const client = await connect("plain");
    let announced = 0;
    client.onToolsChanged(() => announced++);
    await client.callTool("grow", {});
    await waitUntil(() => announced === 1, "the change was announced");
    expect(client.tools().map((t) => t.name)).toContain("grown_7");
  });

  test("the server's ping is answered; a request for a capability shiro does not declare is method-not-found", async () => {
    const client = await connect("plain");
    expect(JSON.parse((await client.callTool("ask", {})).content[0]!.text as string)).toEqual([
      { id: "s1", result: {} },
      { id: "s2", error: { code: -32601, message: "Method not found: roots/list" } },
    ]);
  });

  test("a call given up on is cancelled at the server with its id and reason", async () => {
    const client = await connect("plain");
    const abort = new AbortController();
    const call = client.callTool("hang", {}, { signal: abort.signal });
    setTimeout(() => abort.abort("the user pressed Esc"), 100);
    expect(((await call.catch((e) => e)) as McpError).kind).toBe("cancelled");
    const timedOut = (await client.callTool("hang", {}, { timeoutMs: 200 }).catch((e) => e)) as McpError;
    expect([timedOut.kind, timedOut.message]).toEqual(["timeout", "tools/call got no answer within 0.2 s"]);
    await waitUntil(() => client.stderrTail().includes("cancelled 4: timed out"), "the server heard of the timeout");
    expect(client.stderrTail()).toContain("cancelled 3: the user pressed Esc");
  });

  test("progress alone does not outlast the cap", async () => {
    const client = await connect("plain");
    const steps: (string | undefined)[] = [];
    const started = Date.now();
    const err = (await client.callTool("tick", {}, { timeoutMs: 500, maxTimeoutMs: 1_200, onProgress: (_p, _t, message) => steps.push(message) }).catch((e) => e)) as McpError;
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_150);
    expect(steps.slice(0, 3)).toEqual(["step 1", "step 2", "step 3"]);
  });

  test("with a cap and no listener, progress still extends the timeout", async () => {
    const client = await connect("plain");
    const started = Date.now();
    const err = (await client.callTool("tick", {}, { timeoutMs: 500, maxTimeoutMs: 1_200 }).catch((e) => e)) as McpError;
    expect(err.kind).toBe("timeout");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_150);
  });

  test("an exit after start-up rejects the call and is reported once through onClose", async () => {
    const client = await connect("plain");
    const reasons: string[] = [];
    client.onClose((reason) => reasons.push(reason));
    const err = (await client.callTool("crash", {}).catch((e) => e)) as McpError;
    expect([err.kind, err.message]).toEqual(["closed", "the server exited with code 4"]);
    expect(reasons).toEqual(["exited with code 4"]);
    expect(((await client.callTool("big", {}).catch((e) => e)) as McpError).kind).toBe("closed");
  });

  test("a server that closes its stdout and lives on: the call ends at once, not at its timeout, and the process is gone", async () => {
    const client = await connect("plain");
    const reasons: string[] = [];
    client.onClose((reason) => reasons.push(reason));
    // "closed", not "timeout": it ended when the server's stdout did, not at its 20 s.
    const err = (await client.callTool("mute", {}, { timeoutMs: 20_000 }).catch((e) => e)) as McpError;
    expect(err.kind).toBe("closed");
    expect(reasons).toHaveLength(1);
    await waitUntil(() => isGone(client.pid!), "the server's process ends");
  });

  test("a server ignoring SIGTERM is killed, with everything it started", async () => {
    const client = await connect("ignore-term");
    await waitUntil(() => /child \d+/.test(client.stderrTail()), "the server started its child");
    const child = Number(client.stderrTail().match(/child (\d+)/)![1]);
    expect(groupMembers(client.pid!)).toContain(child);
    const started = Date.now();
    await client.close();
    // stdin closed, ~1.5 s; SIGTERM (ignored), ~1.5 s; then SIGKILL.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    expect(client.stderrTail()).toContain("SIGTERM ignored");
    await waitUntil(() => isGone(client.pid!) && isGone(child), "the server and its child are gone");
    expect(groupMembers(client.pid!)).toEqual([]);
  });
});

test("a stdio server and what it started die with the process holding them, even by SIGKILL", async () => {
  const holder = Bun.spawn([process.execPath, join(import.meta.dir, "../../fixtures/mcp/hold-server.ts"), "ignore-term"], { stdout: "pipe", stderr: "inherit" });
  const reader = holder.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
  const [, server, child] = out.trim().split(" ").map(Number) as [number, number, number];
  expect(isGone(server) || isGone(child)).toBe(false);
  holder.kill("SIGKILL");
  await waitUntil(() => isGone(server) && isGone(child), "the server and its child died with their holder");
  expect(groupMembers(server)).toEqual([]);
});
