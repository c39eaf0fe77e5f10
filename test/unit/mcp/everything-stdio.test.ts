import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connectMcpServer } from "../../../src/mcp/connect-server.ts";
import type { McpClient } from "../../../src/mcp/mcp-client.ts";
import type { McpError } from "../../../src/mcp/mcp-error.ts";
import { groupMembers } from "../../support/process-group.ts";
import { abortedOperation, everythingStdio, serverEnv, textOf } from "../../support/mcp-servers.ts";
import { waitUntil } from "../../support/wait-until.ts";

// The reference server, over stdio, started once for the file.
let client: McpClient;
const parentKey = process.env.OPENAI_API_KEY;
beforeAll(async () => {
  process.env.OPENAI_API_KEY = "sk-parent-key-the-server-must-not-see";
  client = await connectMcpServer("everything", everythingStdio(serverEnv({ GREETING: "from-the-config" })), { startupTimeoutMs: 15_000 });
});
afterAll(async () => {
  if (parentKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = parentKey;
  await client?.close();
});


describe("MCP over stdio against server-everything", () => {
  test("the handshake settles on 2025-11-25 and lists every tool", () => {
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo.name).toBe("mcp-servers/everything");
    const names = client.tools().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-env", "get-structured-content", "get-tiny-image", "trigger-long-running-operation"]));
    const echo = client.tools().find((t) => t.name === "echo")!;
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
  });

  test("echo comes back as text", async () => {
    expect(await client.callTool("echo", { message: "hello, shiro" })).toEqual({ content: [{ type: "text", text: "Echo: hello, shiro" }] });
  });

  test("structured content is kept beside the text", async () => {
    const result = await client.callTool("get-structured-content", { location: "Chicago" });
    expect(result.structuredContent).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
    expect(client.tools().find((t) => t.name === "get-structured-content")!.outputSchema).toMatchObject({ type: "object" });
  });

  test("an image arrives as image content with its bytes", async () => {
    const image = (await client.callTool("get-tiny-image", {})).content.find((c) => c.type === "image")!;
    expect(image.mimeType).toBe("image/png");
    expect(Buffer.from(image.data as string, "base64").subarray(1, 4).toString()).toBe("PNG");
  });

  test("a long-running tool reports each step, and progress extends its timeout", async () => {
    const seen: [number, number | undefined][] = [];
    // 1.6 s of work against a 700 ms timeout: only the progress every 400 ms keeps it alive.
    const result = await client.callTool("trigger-long-running-operation", { duration: 1.6, steps: 4 }, { timeoutMs: 700, maxTimeoutMs: 5_000, onProgress: (p, total) => seen.push([p, total]) });
    expect(textOf(result)).toContain("Long running operation completed");
    expect(seen).toEqual([[1, 4], [2, 4], [3, 4], [4, 4]]);
  });

  test("the cap on progress-extended time still ends the call", async () => {
    // A timeout while progress still comes: the cap, not the 10 s operation's end, decided.
    const err = (await client.callTool("trigger-long-running-operation", { duration: 10, steps: 20 }, { timeoutMs: 700, maxTimeoutMs: 1_500, onProgress: () => {} }).catch((e) => e)) as McpError;
    expect(err.kind).toBe("timeout");
  });

  test("aborting a call ends it at once, and the server goes on serving", async () => {
    // "cancelled", not the operation's own end: the abort ended it.
    const { err } = await abortedOperation(client, 300);
    expect(err.kind).toBe("cancelled");
    await client.ping();
    expect(textOf(await client.callTool("echo", { message: "still here" }))).toBe("Echo: still here");
  });

  test("the server's environment is the one given: no API key from shiro's", async () => {
    const env = JSON.parse(textOf(await client.callTool("get-env", {})));
    expect(env.GREETING).toBe("from-the-config");
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(Object.keys(env).filter((k) => k !== "PATH" && k !== "GREETING" && k !== "PWD" && k !== "SHLVL" && k !== "_")).toEqual([]);
  });

  test("close ends the server's whole process group", async () => {
    const other = await connectMcpServer("everything-2", everythingStdio(), { startupTimeoutMs: 15_000 });
    expect(groupMembers(other.pid!).length).toBeGreaterThan(0);
    await other.close();
    await other.close();
    await waitUntil(() => groupMembers(other.pid!).length === 0, "the server's group is gone");
  });
});
