/**
 * What `shiro mcp list` and `shiro mcp test` tell a person, each thing once and true: a failure in the
 * row or verdict only (no warning beside it, no "the run goes on" where there is no run), a project's
 * unapproved `.mcp.json` named with how to approve it (not "no MCP servers configured"), a definition
 * with an unset variable as that (not as a project's server waiting for approval).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolServer } from "../../support/mcp-run.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";

const dirs: string[] = [];
const project = (files: Record<string, unknown>) => {
  const dir = tempDir("mcp-messages");
  dirs.push(dir);
  for (const [name, json] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(json));
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const mcp = (cwd: string, ...args: string[]) => runShiro(["mcp", ...args], { cwd });

const APPROVE = "(approve in an interactive shiro here, which asks, or pass --mcp-config .mcp.json to use the file as it is)";

describe("a server that fails", () => {
  const dir = () => project({ "s.json": { mcpServers: { broken: { command: "/nonexistent/mcp" }, ok: toolServer([1]) } } });

  test("shiro mcp test: the failure once, on stdout, exit 1; the control that works: ✓, exit 0", async () => {
    const cwd = dir();
    const bad = await mcp(cwd, "test", "broken", "--mcp-config", "s.json");
    expect(bad).toEqual({ code: 1, stdout: '✗ broken: MCP server "broken" did not start: command not found: /nonexistent/mcp\n', stderr: "" });
    const good = await mcp(cwd, "test", "ok", "--mcp-config", "s.json");
    expect(good.code).toBe(0);
    expect(good.stdout).toStartWith("✓ ok: tool-server 1, ");
    expect(good.stderr).toBe("");
  }, 30_000);

  test("shiro mcp list: its row says it, and nothing else does", async () => {
    const list = await mcp(dir(), "list", "--mcp-config", "s.json");
    expect(list.code).toBe(0);
    expect(list.stderr).toBe("");
    const rows = list.stdout.trimEnd().split("\n");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^broken +failed +MCP server "broken" did not start: command not found: \/nonexistent\/mcp$/);
    expect(rows[1]).toMatch(/^ok +connected +1 tools /);
  }, 30_000);

  test("a definition naming an unset variable: the verdict names the variable", async () => {
    const cwd = project({ "s.json": { mcpServers: { v: { command: "srv", args: ["${SHIRO_TEST_UNSET_VAR}"] } } } });
    const run = await mcp(cwd, "test", "v", "--mcp-config", "s.json");
    expect(run).toEqual({
      code: 1,
      stdout: '✗ v: MCP server "v" (s.json) did not start: its definition uses ${SHIRO_TEST_UNSET_VAR}, which is not set; export it or give a default (${SHIRO_TEST_UNSET_VAR:-value})\n',
      stderr: "",
    });
  }, 30_000);
});

describe("no server started: what is configured, as it is", () => {
  const dir = () => project({ ".mcp.json": { mcpServers: { proj: toolServer([1]) } } });

  test("a project's .mcp.json not approved, shiro mcp list: the project defines it and how to approve it, not that none is configured", async () => {
    const list = await mcp(dir(), "list");
    expect(list).toEqual({ code: 0, stdout: `.mcp.json defines MCP server proj not approved as it stands: not started ${APPROVE}\n`, stderr: "" });
  }, 30_000);

  test("the same, shiro mcp test: one verdict saying so", async () => {
    const run = await mcp(dir(), "test", "proj");
    expect(run).toEqual({ code: 1, stdout: `✗ proj: .mcp.json defines it, not approved as it stands ${APPROVE}\n`, stderr: "" });
  }, 30_000);

  test("the control: a folder with no server at all is told none is configured", async () => {
    const list = await mcp(project({}), "list");
    expect(list).toEqual({ code: 0, stdout: "no MCP servers configured (mcpServers in config.json, --mcp-config, or an approved .mcp.json; docs/mcp.md)\n", stderr: "" });
  }, 30_000);

  test("servers that are all disabled are named as such", async () => {
    const list = await mcp(project({ "s.json": { mcpServers: { off: { ...toolServer([1]), enabled: false } } } }), "list", "--mcp-config", "s.json");
    expect(list).toEqual({ code: 0, stdout: 'no MCP server is enabled: off has "enabled": false (shiro mcp test <name> starts one anyway)\n', stderr: "" });
  }, 30_000);
});
