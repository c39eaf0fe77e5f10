import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { connectMcpServer } from "../../../src/mcp/connect-server.ts";
import type { McpClient } from "../../../src/mcp/mcp-client.ts";
import type { McpError } from "../../../src/mcp/mcp-error.ts";
import { abortedOperation, EVERYTHING, serverEnv, textOf } from "../../support/mcp-servers.ts";
import { waitUntil } from "../../support/wait-until.ts";

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe("Streamable HTTP against server-everything", () => {
  let server: Bun.Subprocess<"ignore", "pipe", "pipe">;
  let log = "";
  let url = "";
  beforeAll(async () => {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port;
    await probe.stop();
    server = Bun.spawn(["node", EVERYTHING, "streamableHttp"], { env: serverEnv({ PORT: String(port) }), stdout: "pipe", stderr: "pipe" });
    const decoder = new TextDecoder();
    for (const stream of [server.stdout, server.stderr]) void (async () => { for await (const chunk of stream) log += decoder.decode(chunk); })();
    await waitUntil(() => log.includes("listening on port"), "server-everything listens", 15_000);
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => server?.kill());
  const connect = async () => {
    const client = await connectMcpServer("everything-http", { kind: "http", url, headers: {} }, { startupTimeoutMs: 10_000 });
    open.push(client);
    return client;
  };

  test("handshake, tools, a call, and the standalone stream for its list changes", async () => {
    const client = await connect();
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.tools().map((t) => t.name)).toContain("echo");
    expect(textOf(await client.callTool("echo", { message: "over http" }))).toBe("Echo: over http");
    const session = log.match(/Session initialized with ID: (\S+)/g)!.at(-1)!.split(": ")[1]!;
    await waitUntil(() => log.includes(`Establishing new SSE stream for session ${session}`), "the client opened the GET stream");
    await client.close();
    await waitUntil(() => log.includes(`Received session termination request for session ${session}`), "the session was deleted at close");
  });

  test("progress comes over the call's event stream; an abort ends the call at once", async () => {
    const client = await connect();
    const steps: number[] = [];
    const done = await client.callTool("trigger-long-running-operation", { duration: 0.6, steps: 3 }, { timeoutMs: 5_000, onProgress: (p) => steps.push(p) });
    expect(textOf(done)).toContain("completed");
    expect(steps).toEqual([1, 2, 3]);
    const { err } = await abortedOperation(client, 200);
    expect(err.kind).toBe("cancelled");
    expect(textOf(await client.callTool("echo", { message: "after" }))).toBe("Echo: after");
  });
});

// An event stream of `text`, ended after it unless `open`.
const sse = (text: string, open = false) =>
  new Response(
    new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(text));
        if (!open) c.close();
      },
    }),
    { headers: { "content-type": "text/event-stream" } },
  );

/**
 * A small Streamable HTTP server of our own: JSON answers, sessions it can forget, a GET it refuses
 * (or, with `stream`, a GET stream announcing a tool change, dropped once with an event id to resume
 * from), and a tool `drop` whose event stream ends without an answer or an id.
 */
function sessionServer(opts: { version?: string; status?: number; stream?: boolean } = {}) {
  const seen: { method: string; rpc?: string; headers: Record<string, string> }[] = [];
  let sessions = 0;
  let live = new Set<string>();
  let gets = 0;
  const http = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = req.method === "POST" ? ((await req.json()) as { id?: number; method?: string; params?: any }) : undefined;
      seen.push({ method: req.method, rpc: body?.method, headers: Object.fromEntries(req.headers) });
      if (opts.status) return new Response("token expired", { status: opts.status, statusText: "Unauthorized" });
      if (req.method === "GET" && !opts.stream) return new Response(null, { status: 405 });
      // The first GET announces a change and drops; the resumed one stays open, saying nothing.
      if (req.method === "GET") return ++gets === 1 ? sse(`id: g1\nretry: 100\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n`) : sse(": open\n\n", true);
      const session = req.headers.get("mcp-session-id");
      if (req.method === "DELETE") return new Response(null, { status: 200 });
      if (body?.method === "initialize") {
        const id = `session-${++sessions}`;
        live.add(id);
        const result = { protocolVersion: opts.version ?? "2025-06-18", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "sessions" } };
        return Response.json({ jsonrpc: "2.0", id: body.id, result }, { headers: { "mcp-session-id": id } });
      }
      if (!session || !live.has(session)) return new Response("no such session", { status: 404 });
      if (body?.id === undefined) return new Response(null, { status: 202 });
      if (body.method === "tools/list") {
        const tools = [{ name: "where", inputSchema: { type: "object" } }, ...(gets ? [{ name: "added", inputSchema: { type: "object" } }] : [])];
        return Response.json({ jsonrpc: "2.0", id: body.id, result: { tools } });
      }
      if (body.params?.name === "drop") return sse(": working\n\n");
      return Response.json({ jsonrpc: "2.0", id: body.id, result: { content: [{ type: "text", text: `in ${session}` }] } });
    },
  });
  return { url: `http://127.0.0.1:${http.port}/mcp`, seen, expire: () => (live = new Set()), stop: () => http.stop(true) };
}

describe("Streamable HTTP sessions", () => {
  test("headers from config, the session id and the negotiated version on every later request; an expired session is renewed once", async () => {
    const server = sessionServer();
    try {
      const client = await connectMcpServer("sessions", { kind: "http", url: server.url, headers: { authorization: "Bearer s3cret", "x-team": "blue" } }, { startupTimeoutMs: 5_000 });
      open.push(client);
      expect(client.protocolVersion).toBe("2025-06-18");
      expect(textOf(await client.callTool("where", {}))).toBe("in session-1");
      server.expire();
      expect(textOf(await client.callTool("where", {}))).toBe("in session-2");
      await client.close();
      for (const request of server.seen) {
        expect(request.headers.authorization).toBe("Bearer s3cret");
        expect(request.headers["x-team"]).toBe("blue");
      }
      const posts = server.seen.filter((r) => r.method === "POST");
      expect(posts[0]!.headers.accept).toBe("application/json, text/event-stream");
      expect(posts[0]!.headers["content-type"]).toBe("application/json");
      expect(posts.map((r) => [r.rpc, r.headers["mcp-session-id"]])).toEqual([
        ["initialize", undefined],
        ["notifications/initialized", "session-1"],
        ["tools/list", "session-1"],
        ["tools/call", "session-1"],
        ["tools/call", "session-1"],
        ["initialize", undefined],
        ["notifications/initialized", "session-2"],
        ["tools/call", "session-2"],
      ]);
      for (const request of server.seen.slice(1)) if (request.rpc !== "initialize") expect(request.headers["mcp-protocol-version"]).toBe("2025-06-18");
      // The GET stream was tried (the server announced list changes) and refused with 405: no harm done.
      expect(server.seen.filter((r) => r.method === "GET")).toHaveLength(1);
      expect(server.seen.at(-1)).toMatchObject({ method: "DELETE", headers: { "mcp-session-id": "session-2" } });
    } finally {
      server.stop();
    }
  });

  test("the standalone stream brings a tool change and is resumed from its last event id", async () => {
    const server = sessionServer({ stream: true });
    try {
      const client = await connectMcpServer("changes", { kind: "http", url: server.url, headers: {} }, { startupTimeoutMs: 5_000 });
      open.push(client);
      let changed = 0;
      client.onToolsChanged(() => changed++);
      await waitUntil(() => changed === 1, "the tool change was announced");
      expect(client.tools().map((t) => t.name)).toEqual(["where", "added"]);
      await waitUntil(() => server.seen.filter((r) => r.method === "GET").length === 2, "the stream was resumed");
      await Bun.sleep(300);
      const gets = server.seen.filter((r) => r.method === "GET");
      expect(gets).toHaveLength(2);
      const [first, second] = gets;
      expect(first!.headers.accept).toBe("text/event-stream");
      expect(first!.headers["last-event-id"]).toBeUndefined();
      expect(second!.headers["last-event-id"]).toBe("g1");
    } finally {
      server.stop();
    }
  });

  test("an event stream that ends without the answer and without an id fails the call, not the session", async () => {
    const server = sessionServer();
    try {
      const client = await connectMcpServer("drops", { kind: "http", url: server.url, headers: {} }, { startupTimeoutMs: 5_000 });
      open.push(client);
      const err = (await client.callTool("drop", {}, { timeoutMs: 5_000 }).catch((e) => e)) as McpError;
      expect([err.kind, err.message]).toEqual(["closed", "the server ended its event stream without an answer (and gave no event id to resume from)"]);
      expect(textOf(await client.callTool("where", {}))).toBe("in session-1");
    } finally {
      server.stop();
    }
  });

  test("a version shiro does not speak is refused, naming both", async () => {
    const server = sessionServer({ version: "2024-11-05" });
    try {
      const err = (await connectMcpServer("old", { kind: "http", url: server.url, headers: {} }, { startupTimeoutMs: 5_000 }).catch((e) => e)) as McpError;
      expect(err.message).toBe('MCP server "old" did not start: the server speaks MCP 2024-11-05, and shiro speaks 2025-11-25 (or 2025-06-18, 2025-03-26)');
    } finally {
      server.stop();
    }
  });

  test("an HTTP error status is the start-up's one line, without the headers sent", async () => {
    const server = sessionServer({ status: 401 });
    try {
      const err = (await connectMcpServer("auth", { kind: "http", url: server.url, headers: { authorization: "Bearer s3cret" } }, { startupTimeoutMs: 5_000 }).catch((e) => e)) as McpError;
      expect(err.message).toBe(`MCP server "auth" did not start: ${server.url} answered HTTP 401 Unauthorized: token expired`);
    } finally {
      server.stop();
    }
  });

  test("nothing listening: one line naming the URL", async () => {
    const server = sessionServer();
    server.stop();
    const err = (await connectMcpServer("down", { kind: "http", url: server.url, headers: {} }, { startupTimeoutMs: 5_000 }).catch((e) => e)) as McpError;
    expect(err.message).toStartWith(`MCP server "down" did not start: could not reach ${server.url}: `);
    expect(err.message).not.toContain("\n");
  });
});
