/**
 * MCP servers' tools through the binary: what the model is sent (names, schemas non-strict), what it
 * reads back (text, an image as input_image), the rules that let a call run, and `--no-mcp`.
 */
import { describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { mcpJob, mcpToolsOf, everything } from "../../support/mcp-run.ts";
import { FINAL, scriptedJob } from "../../support/scripted-job.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";

const ALLOW = ["--allow", "mcp__ev__*"];

describe("server-everything over stdio, configured with --mcp-config", () => {
  test("its tools are sent as mcp__ev__<tool>, non-strict, schemas passed through; echo's text and the tiny image reach the model", async () => {
    const run = await mcpJob([{ name: "mcp__ev__echo", arguments: { message: "hi there" } }, { name: "mcp__ev__get-tiny-image", arguments: {} }], {
      servers: { ev: everything() },
      args: ALLOW,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${FINAL}\n`);
    const tools = mcpToolsOf(run.requests[0]!.body);
    const echo = tools.find((t) => t.name === "mcp__ev__echo");
    expect(echo).toMatchObject({ type: "function", strict: false, parameters: { type: "object", properties: { message: { type: "string" } } } });
    expect(JSON.stringify(tools)).not.toContain("$schema");
    expect(tools.map((t) => t.name)).toContain("mcp__ev__trigger-long-running-operation");
    // The tool list is the same, byte for byte, on every request (the cached prefix).
    for (const r of run.requests) expect(JSON.stringify(r.body.tools)).toBe(JSON.stringify(run.requests[0]!.body.tools));

    const outputs = run.requests.at(-1)!.body.input.filter((i: any) => i.type === "function_call_output");
    expect(outputs[0].output).toBe("Echo: hi there");
    const image = outputs[1].output;
    expect(image[0]).toMatchObject({ type: "input_text", text: expect.stringContaining("\n[image 1: image/png, 3.9 KiB]\n") });
    expect(image[1]).toMatchObject({ type: "input_image", image_url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) });
  }, 60_000);

  test("its environment is what commands get (the person's less secrets) plus what its config names: no API key, no token", async () => {
    const run = await mcpJob([{ name: "mcp__ev__get-env", arguments: {} }], {
      servers: { ev: everything({ env: { GREETING: "from-config" } }) },
      args: ALLOW,
      env: { SOME_TOKEN: "tok-should-not-pass", PLAIN_SETTING: "reaches-the-server" },
    });
    expect(run.code).toBe(0);
    const output = run.outputs.find((o) => o.name === "mcp__ev__get-env")!.output;
    expect(output).toContain('"GREETING": "from-config"');
    expect(output).toContain('"PATH"');
    expect(output).toContain('"PLAIN_SETTING": "reaches-the-server"');
    expect(output).not.toContain(TEST_API_KEY);
    expect(output).not.toContain("OPENAI_API_KEY");
    expect(output).not.toContain("tok-should-not-pass");
  }, 60_000);

  test("a call asks by default: print mode cannot ask, so it is denied with how to allow it", async () => {
    const run = await mcpJob([{ name: "mcp__ev__echo", arguments: { message: "x" } }], { servers: { ev: everything() } });
    expect(run.code).toBe(4);
    expect(run.outputs[0]!.output).toStartWith('Denied: mcp__ev__echo {"message":"x"} needs approval, and this run cannot ask (print mode).');
  }, 60_000);

  test("a deny rule wins over --yolo; --allow names one tool", async () => {
    const denied = await mcpJob([{ name: "mcp__ev__echo", arguments: { message: "x" } }], { servers: { ev: everything() }, args: ["--yolo", "--deny", "mcp__ev__echo"] });
    expect(denied.outputs[0]!.output).toStartWith("Denied: permission rule deny mcp__ev__echo **");
    const allowed = await mcpJob([{ name: "mcp__ev__echo", arguments: { message: "x" } }], { servers: { ev: everything() }, args: ["--allow", "mcp__ev__echo"] });
    expect(allowed.outputs[0]!.output).toBe("Echo: x");
  }, 60_000);

  test("--no-mcp: no server starts and no MCP tool is sent", async () => {
    const run = await mcpJob([], { servers: { ev: everything() }, args: ["--no-mcp"] });
    expect(run.code).toBe(0);
    expect(mcpToolsOf(run.requests[0]!.body)).toEqual([]);
    expect(run.stderr).toBe("");
  }, 60_000);

  test("a call past its toolTimeout is cancelled and ends as an error result; progress keeps a slow one alive", async () => {
    const LONG = "mcp__ev__trigger-long-running-operation";
    const run = await mcpJob([{ name: LONG, arguments: { duration: 8, steps: 1 } }, { name: LONG, arguments: { duration: 2, steps: 8 } }], { servers: { ev: everything({ toolTimeout: 1 }) }, args: ALLOW });
    expect(run.code).toBe(0);
    const [slow, steady] = run.outputs;
    expect(slow!.output).toBe(`${LONG} failed: tools/call got no answer within 1 s`);
    expect(steady!.output).toContain("Long running operation completed");
    // The 8-second call was cancelled at its toolTimeout (its error says so), not waited out.
  }, 60_000);

  test("an output holding a secret value is redacted before the model sees it; a read-only annotation grants nothing", async () => {
    const run = await mcpJob([{ name: "mcp__ev__echo", arguments: { message: "the key is tok-abcdef0123456789abcdef" } }], { servers: { ev: everything() }, args: ALLOW, env: { SERVICE_TOKEN: "tok-abcdef0123456789abcdef" } });
    expect(run.outputs[0]!.output).not.toContain("tok-abcdef0123456789abcdef");
    expect(run.outputs[0]!.output).toStartWith("Echo: the key is ");
    const readOnly = await mcpJob([{ name: "mcp__ev__trigger-long-running-operation", arguments: { duration: 0.1, steps: 1 } }], { servers: { ev: everything() } });
    expect(readOnly.outputs[0]!.output).toStartWith("Denied: mcp__ev__trigger-long-running-operation ");
  }, 60_000);

  test("progress reaches --json as tool-progress lines, each the newest step", async () => {
    const run = await mcpJob([{ name: "mcp__ev__trigger-long-running-operation", arguments: { duration: 1, steps: 4 } }], { servers: { ev: everything() }, args: [...ALLOW, "--json"] });
    expect(run.code).toBe(0);
    const progress = run.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === "tool-progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1).text).toStartWith("4/4");
  }, 60_000);

  test("a resumed session sends the image again, as the log kept it", async () => {
    const home = tempDir("mcp-resume-home");
    const project = tempDir("mcp-resume-project");
    try {
      const servers = { ev: everything() };
      writeFileSync(join(project, "s.json"), JSON.stringify({ mcpServers: servers }));
      const args = ["--mcp-config", join(project, "s.json"), ...ALLOW];
      const first = await scriptedJob([{ name: "mcp__ev__get-tiny-image", arguments: {} }], { cwd: project, home, args });
      expect(first.code).toBe(0);
      const again = await scriptedJob([], { cwd: project, home, args: ["-c", ...args] });
      expect(again.code).toBe(0);
      const output = again.requests[0]!.body.input.find((i: any) => i.type === "function_call_output").output;
      expect(output[1]).toMatchObject({ type: "input_image", image_url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) });
    } finally {
      for (const dir of [home, project]) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
