import { afterAll, beforeAll, expect, test } from "bun:test";
import { realpathSync, rmSync } from "node:fs";
import { initializeEditor, startAcpEditor } from "../../support/acp-client.ts";
import { EVERYTHING } from "../../support/mcp-servers.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
let home: string;
let cwd: string;
beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5-mcp": sequenceModel([{ name: "mcp__everything__echo", arguments: { message: "from the editor's server" } }], "Echoed.") } });
  home = tempDir("acp-mcp-home");
  cwd = realpathSync(tempDir("acp-mcp-proj"));
});
afterAll(async () => {
  await server.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

test("an MCP server the editor passes with session/new is started for that session, and its tool answers", async () => {
  const e = startAcpEditor({ cwd, home, baseUrl: server.url, args: ["--model", "gpt-5-mcp"] });
  try {
    await initializeEditor(e.agent);
    const node = Bun.which("node")!;
    const { sessionId } = await e.agent.request("session/new", { cwd, mcpServers: [{ name: "everything", command: node, args: [EVERYTHING, "stdio"], env: [] }] });
    const done = await e.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "echo something" }] });
    expect(done.stopReason).toBe("end_turn");
    // The first request already offered the server's tool: the editor's servers are waited for.
    expect(server.requests.at(0)!.body.tools.map((t: { name: string }) => t.name)).toContain("mcp__everything__echo");
    const updates = e.updates.map((n) => n.update);
    const result = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed") as { content: { content: { text: string } }[] };
    expect(result.content[0]!.content.text).toContain("Echo: from the editor's server");
  } finally {
    expect(await e.quit()).toBe(0);
  }
});
