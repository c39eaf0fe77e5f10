/**
 * Issue 31: what a command or an MCP tool returns reaches the model as text — ESC, C1 and the other
 * control characters spelled out (`\x1b`), as a person's approvals already show them — never as raw
 * bytes in its input. The control: the words around them, tabs and line breaks arrive as they were.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVERYTHING } from "../../support/mcp-servers.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

// Clear the screen, set the clipboard (OSC 52), a C1 CSI (U+009B), a backspace; and a tab and a newline that stay.
const BYTES = "before\x1b[2J\x1b]52;c;ZXZpbAo=\x07\u009b31m\bafter\tcol\nline two";
const SPELLED = "before\\x1b[2J\\x1b]52;c;ZXZpbAo=\\x07\\x9b31m\\x08after\tcol\nline two";

test("a command's output and an MCP tool's result: controls spelled out in what the model receives, the text around them whole", async () => {
  const cwd = tempDir("model-input");
  writeFileSync(join(cwd, "servers.json"), JSON.stringify({ mcpServers: { e: { command: "node", args: [EVERYTHING, "stdio"], required: true } } }));
  writeFileSync(join(cwd, "bytes.txt"), BYTES);
  const calls = [
    { name: "bash", arguments: { command: "cat bytes.txt" } },
    { name: "mcp__e__echo", arguments: { message: BYTES } },
  ];
  const job = await scriptedJob(calls, { cwd, args: ["--yolo", "--mcp-config", "servers.json"] });
  const [command, mcp] = job.outputs.map((o) => o.output);
  expect(command).toStartWith(SPELLED);
  expect(mcp).toContain(SPELLED);
  // Every tool result in every request (the model's own call arguments are its words, not a result).
  const results = job.requests.flatMap((r) => (JSON.parse(r.raw).input as { type: string; output?: unknown }[]).filter((i) => i.type === "function_call_output").map((i) => JSON.stringify(i.output)));
  expect(results.length).toBeGreaterThan(0);
  for (const result of results) expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(JSON.parse(result.startsWith('"') ? result : JSON.stringify(result)))).toBe(false);
});
