import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// The official suite runs its test server and launches our client against it (the runner appends the URL).
const ROOT = join(import.meta.dir, "../../..");
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = `${process.execPath} ${join(ROOT, "test/support/mcp-conformance-client.ts")}`;
// The suite writes its results under the folder it runs in.
const cwd = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe("the MCP conformance suite's client scenarios", () => {
  for (const scenario of ["initialize", "tools_call", "sse-retry"])
    test(scenario, async () => {
      // bun, not node: the suite needs a newer node than some machines have.
      const run = Bun.spawn([process.execPath, SUITE, "client", "--command", CLIENT, "--scenario", scenario, "--timeout", "20000"], { cwd, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
      const report = out + err;
      expect(report).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
      expect(report).toContain("OVERALL: PASSED");
      expect(code).toBe(0);
    });
});
