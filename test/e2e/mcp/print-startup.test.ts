/**
 * Print mode meets its MCP servers before its first request: a run is often one or two requests, so a
 * server still starting would silently be missing from all of them. The first request waits for every
 * server until it is up or its `startupTimeout` ran out; one that did not start is one line (an `mcp`
 * event with --json) and the run goes on — unless it is `required`, which stops the run before anything
 * is sent.
 */
import { describe, expect, test } from "bun:test";
import { everything, mcpJob, mcpToolsOf, toolServer } from "../../support/mcp-run.ts";
import { FINAL } from "../../support/scripted-job.ts";

const ECHO = { name: "mcp__ev__echo", arguments: { message: "hello from the model" } };
// Servers that never come up: one that never answers (a short wait, so the test does not sit out the default 10 s), one that exits at once.
const ASLEEP = { command: "sleep", args: ["600"], startupTimeout: 0.5 };
const EXITS = { command: "sh", args: ["-c", "echo cannot open the database >&2; exit 3"] };
const ASLEEP_WHY = 'MCP server "asleep" did not start: no answer to initialize within 0.5 s';
const jsonLines = (stdout: string) => stdout.trim().split("\n").map((line) => JSON.parse(line));

describe("a server not marked required", () => {
  test("server-everything: the first request offers its tools, and the model's call to one comes back in the next", async () => {
    const run = await mcpJob([ECHO], { servers: { ev: everything({ required: false }) }, args: ["--allow", "mcp__ev__*"] });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("  ✓ Echo: hello from the model\n");
    expect(run.stderr.split("\n").filter((line) => line.startsWith("!"))).toEqual([]);
    expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toContain("mcp__ev__echo");
    expect(run.outputs).toMatchObject([{ name: "mcp__ev__echo", output: "Echo: hello from the model", request: 1 }]);
    expect(run.stdout).toBe(`${FINAL}\n`);
  }, 30_000);

  test("a slow one (initialize answered after 1.5 s): the first request waits for it and carries its tools", async () => {
    const run = await mcpJob([], { servers: { slow: toolServer([1, "--delay", 1500]) } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__slow__t1"]);
  }, 30_000);
});

describe("a server that never starts", () => {
  test("one that never answers and one that exits: one line each, the run goes on with the server that did start", async () => {
    const run = await mcpJob([], { servers: { asleep: ASLEEP, exits: EXITS, up: toolServer([1]) } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${FINAL}\n`);
    expect(run.stderr.split("\n").sort()).toEqual([
      "",
      `! ${ASLEEP_WHY}; the run goes on without it`,
      '! MCP server "exits" did not start: it exited with code 3; its stderr ends: cannot open the database; the run goes on without it',
    ]);
    // The control: the honest server's tools are in the first request, the others' are not.
    expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__up__t1"]);
  }, 30_000);

  test("with --json: an mcp event for each server, nothing on stderr, and the result", async () => {
    const run = await mcpJob([], { servers: { asleep: ASLEEP, up: toolServer([1]) }, args: ["--json"] });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const events = jsonLines(run.stdout);
    expect(events.filter((e) => e.type === "mcp").sort((a, b) => a.server.localeCompare(b.server))).toEqual([
      { type: "mcp", server: "asleep", status: "failed", error: ASLEEP_WHY },
      { type: "mcp", server: "up", status: "connected", tools: 1 },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "result", status: "done", text: FINAL });
  }, 30_000);
});

describe("a required server", () => {
  test("that never starts: the run stops before anything is sent, exit 1, in one line", async () => {
    const run = await mcpJob([], { servers: { asleep: { ...ASLEEP, required: true }, up: toolServer([1]) } });
    expect(run.code).toBe(1);
    expect(run.requests).toHaveLength(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`error: ${ASLEEP_WHY}; it is required ("required": true), so nothing was sent\n`);
  }, 30_000);

  test("that exits, with --json: its mcp event, an error event naming why, and the result", async () => {
    const run = await mcpJob([], { servers: { exits: { ...EXITS, required: true } }, args: ["--json"] });
    expect(run.code).toBe(1);
    expect(run.requests).toHaveLength(0);
    const events = jsonLines(run.stdout);
    expect(events.map((e) => e.type)).toEqual(["mcp", "error", "result"]);
    expect(events[0]).toMatchObject({ server: "exits", status: "failed" });
    expect(events[1]).toMatchObject({ code: "mcp_server_required", status: null });
    expect(events[1].message).toEndWith('; it is required ("required": true), so nothing was sent');
    expect(events[2]).toMatchObject({ status: "error", steps: 0 });
  }, 30_000);

  test("the control: a required server that starts is in the first request, and the run is as any other", async () => {
    const run = await mcpJob([], { servers: { up: toolServer([2], { required: true }) } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__up__t1", "mcp__up__t2"]);
  }, 30_000);
});
