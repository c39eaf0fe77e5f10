/**
 * The client the MCP conformance suite launches (`conformance client --command "bun <this>"`): it
 * appends the test server's URL and names the scenario in MCP_CONFORMANCE_SCENARIO. This connects with
 * shiro's own MCP client, does what the scenario asks, and exits 0, or 1 with the error on stderr.
 */
import { connectMcpServer } from "../../src/mcp/connect-server.ts";

// What each scenario's server expects the client to call once connected.
const CALLS: Record<string, { tool: string; args: Record<string, unknown> }[]> = {
  initialize: [],
  tools_call: [{ tool: "add_numbers", args: { a: 5, b: 3 } }],
  "sse-retry": [{ tool: "test_reconnection", args: {} }],
};

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize";
const client = await connectMcpServer("conformance", { kind: "http", url, headers: {} }, { startupTimeoutMs: 10_000 }).catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
try {
  for (const { tool, args } of CALLS[scenario] ?? []) {
    const result = await client.callTool(tool, args, { timeoutMs: 10_000 });
    console.log(JSON.stringify(result));
  }
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await client.close();
}
