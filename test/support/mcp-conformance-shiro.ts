/**
 * The conformance suite's client, as the binary: the suite appends its test server's URL and names the
 * scenario in MCP_CONFORMANCE_SCENARIO; this runs `dist/shiro -p` with that URL as an HTTP server in a
 * `--mcp-config` file and a scripted model that calls what the scenario expects, and exits as shiro did.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runShiro } from "./run-shiro.ts";
import { FINAL } from "./scripted-job.ts";
import { sequenceModel, type PlannedCall } from "./scripts.ts";
import { startStrictServer } from "./strict-server.ts";

const CALLS: Record<string, PlannedCall[]> = {
  initialize: [],
  tools_call: [{ name: "mcp__c__add_numbers", arguments: { a: 5, b: 3 } }],
  "sse-retry": [{ name: "mcp__c__test_reconnection", arguments: {} }],
};

const url = process.argv.at(-1)!;
const calls = CALLS[process.env.MCP_CONFORMANCE_SCENARIO ?? "initialize"] ?? [];
const dir = mkdtempSync(join(tmpdir(), "shiro-conformance-"));
const server = await startStrictServer({ defaultModel: sequenceModel(calls, FINAL) });
try {
  writeFileSync(join(dir, "s.json"), JSON.stringify({ mcpServers: { c: { type: "http", url, required: true } } }));
  const run = await runShiro(["-p", "--mcp-config", "s.json", "--allow", "mcp__c__*", "do what the scenario asks"], { cwd: dir, env: { OPENAI_BASE_URL: server.url } });
  process.stderr.write(run.stderr);
  // Every call the scenario wants must have been offered, made and answered without an error.
  const offered = (server.requests[0]?.body?.tools ?? []).map((t: { name: string }) => t.name);
  const missing = calls.filter((c) => !offered.includes(c.name));
  if (missing.length) console.error(`not offered: ${missing.map((c) => c.name).join(", ")}`);
  process.exitCode = run.code === 0 && missing.length === 0 ? 0 : 1;
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
