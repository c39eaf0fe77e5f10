/**
 * Servers that misbehave (test/fixtures/mcp/hostile-server.ts), through the binary: each ends in a clear
 * line or an error result, never a hang, never a request the strict server refuses.
 */
import { describe, expect, test } from "bun:test";
import { HOSTILE } from "../../support/mcp-servers.ts";
import { mcpJob, mcpToolsOf } from "../../support/mcp-run.ts";
import { FINAL } from "../../support/scripted-job.ts";

const hostile = (mode: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [HOSTILE, mode], ...extra });
const ALLOW = ["--allow", "mcp__h__*"];
const refusedNone = (run: { requests: { status: number }[] }) => expect(run.requests.every((r) => r.status === 200)).toBe(true);

describe("a server that breaks at start-up: one line, the run goes on", () => {
  test.each([
    ["stdout-text", {}, /^! MCP server "h" did not start: .+; the run goes on without it$/],
    ["silent", { startupTimeout: 0.5 }, /^! MCP server "h" did not start: no answer to initialize within 0\.5 s; the run goes on without it$/],
  ] as const)("%s", async (mode, extra, line) => {
    const run = await mcpJob([], { servers: { h: hostile(mode, extra) } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${FINAL}\n`);
    expect(run.stderr.trimEnd()).toMatch(line);
    expect(mcpToolsOf(run.requests[0]!.body)).toEqual([]);
    refusedNone(run);
  }, 30_000);

  test("exit after initialize: the line carries the end of its stderr", async () => {
    const run = await mcpJob([], { servers: { h: hostile("exit-after-init") } });
    expect(run.code).toBe(0);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("fatal: could not open the database");
    refusedNone(run);
  }, 30_000);
});

describe("a server whose tools misbehave", () => {
  test("200 tools over four pages: refused, naming the server and enabledTools", async () => {
    const run = await mcpJob([], { servers: { h: hostile("many-tools") } });
    expect(run.stderr).toContain('! MCP servers offer 200 tools (h (200)), over the 128 a request can carry well; none is offered — name the ones wanted with "enabledTools"');
    expect(mcpToolsOf(run.requests[0]!.body)).toEqual([]);
    refusedNone(run);
  }, 30_000);

  test("a schema without type is sent as an object; a 2 MB result is capped, the cut said; a crash mid-call is an error result and one line", async () => {
    const run = await mcpJob([{ name: "mcp__h__untyped", arguments: { q: "x" } }, { name: "mcp__h__big", arguments: {} }, { name: "mcp__h__crash", arguments: {} }], { servers: { h: hostile("plain") }, args: ALLOW });
    expect(run.code).toBe(0);
    refusedNone(run);
    const untyped = mcpToolsOf(run.requests[0]!.body).find((t) => t.name === "mcp__h__untyped");
    expect(untyped).toMatchObject({ strict: false, parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } });
    const [q, big, crash] = run.outputs;
    expect(q!.output).toBe("q=x");
    expect(big!.output.length).toBeLessThan(31_000);
    expect(big!.output).toContain("chars cut from the middle of the output");
    expect(crash!.output).toStartWith("mcp__h__crash failed: ");
    expect(run.stderr).toContain('! MCP server "h" stopped: ');
    // Its tools are gone from the next request on.
    expect(mcpToolsOf(run.requests.at(-1)!.body)).toEqual([]);
  }, 30_000);
});

describe("a server whose images are not images", () => {
  test("only the real PNG goes as input_image; HTML or text claiming to be one is a line, and every request is one the API takes", async () => {
    const run = await mcpJob([{ name: "mcp__h__picture", arguments: {} }, { name: "mcp__h__untyped", arguments: { q: "next" } }], { servers: { h: hostile("images") }, args: ALLOW });
    expect(run.code).toBe(0);
    refusedNone(run);
    const images = run.requests.flatMap((r) => JSON.stringify(r.body).match(/data:[^"]*/g) ?? []);
    // Sent with each later request of the session: the one PNG, as a PNG, every time.
    expect(new Set(images)).toEqual(new Set([`data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==`]));
    expect(run.outputs[0]!.output.split("\n")).toHaveLength(3);
  }, 30_000);
});
