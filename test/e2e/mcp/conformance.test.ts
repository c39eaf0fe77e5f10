/** The official MCP conformance suite's client scenarios, with the compiled binary as the client. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../../support/binary.ts";

const SUITE = join(REPO, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const CLIENT = `${process.execPath} ${join(REPO, "test/support/mcp-conformance-shiro.ts")}`;
const cwd = mkdtempSync(join(tmpdir(), "shiro-conformance-suite-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

for (const scenario of ["initialize", "tools_call", "sse-retry"])
  test(`${scenario} passes with dist/shiro as the client`, async () => {
    const run = Bun.spawn([process.execPath, SUITE, "client", "--command", CLIENT, "--scenario", scenario, "--timeout", "25000"], { cwd, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
    expect(out + err).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    expect(out + err).toContain("OVERALL: PASSED");
    expect(code).toBe(0);
  }, 60_000);
