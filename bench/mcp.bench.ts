/**
 * What MCP servers cost a print-mode run (`shiro -p hi`, answered at once by the strict server): with no
 * server, and one or five small stdio servers (test/fixtures/mcp/tool-server.ts, 10 tools each), which
 * the first call waits for (print mode waits for every server, `required` or not).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { TOOL_SERVER } from "../test/support/mcp-run.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import { TEST_API_KEY } from "../test/support/test-key.ts";
import { median } from "./median.ts";
import { ms, timeRun } from "./process-figures.ts";

const RUNS = 9;

export async function bench(): Promise<string[]> {
  ensureBinary();
  const dir = mkdtempSync(join(tmpdir(), "shiro-bench-mcp-"));
  const server = await startStrictServer();
  try {
    const config = (count: number) => {
      const file = join(dir, `servers-${count}.json`);
      const servers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, { command: process.execPath, args: [TOOL_SERVER, "10"] }]));
      writeFileSync(file, JSON.stringify({ mcpServers: servers }));
      return ["--mcp-config", file];
    };
    const cases: [string, string[]][] = [
      ["no MCP server", []],
      ["1 server", config(1)],
      ["5 servers", config(5)],
    ];
    const env = { PATH: process.env.PATH, HOME: dir, SHIRO_HOME: join(dir, "home"), OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url };
    const run = (args: string[]) => timeRun([BINARY, "-p", "--ephemeral", ...args, "hi"], { cwd: dir, env });
    for (const [, args] of cases) await run(args); // warm the page cache
    const walls = cases.map(() => [] as number[]);
    const cpus = cases.map(() => [] as number[]);
    // Interleaved, so a burst of load on the shared machine hits every case alike.
    for (let i = 0; i < RUNS; i++)
      for (let c = 0; c < cases.length; c++) {
        const figures = await run(cases[c]![1]);
        walls[c]!.push(figures.wallMs);
        cpus[c]!.push(figures.cpuMs);
      }
    const base = median(walls[0]!);
    return cases.map(([label], c) => `${label}: median ${ms(median(walls[c]!))} wall (+${ms(median(walls[c]!) - base)}), ${ms(median(cpus[c]!))} CPU, its servers' included (${RUNS} runs)`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
