import { expect, test } from "bun:test";
import { callResultOutput } from "../../../src/mcp/call-result.ts";
import { imageType } from "../../../src/mcp/image-type.ts";
import { mcpFileSchema, serverConfigProblem } from "../../../src/mcp/mcp-config.ts";
import { planServer, toolEnabled } from "../../../src/mcp/server-plan.ts";
import { toolNames } from "../../../src/mcp/tool-names.ts";
import { toolParameters } from "../../../src/mcp/tool-parameters.ts";
import { resultItem } from "../../../src/wire/serialise-input.ts";
import { rejectedToolName } from "../../../src/wire/model-error.ts";
import { approvalQuestion } from "../../../src/mcp/project-servers.ts";
import { wireEntry } from "../../../src/context/wire-entry.ts";
import type { Message } from "../../../src/session/messages.ts";

test("tool names: mcp__<server>__<tool>, odd characters replaced, a hash when too long or taken", () => {
  const named = toolNames([
    { server: "git.hub", tool: "create issue" },
    { server: "git_hub", tool: "create_issue" },
    { server: "s", tool: "x".repeat(80) },
  ]);
  expect(named[0]!.name).toBe("mcp__git_hub__create_issue");
  expect(named[1]!.name).toMatch(/^mcp__git_hub__create_issue_[0-9a-f]{8}$/);
  expect(named[2]!.name.length).toBe(64);
  expect(named[2]!.name).toMatch(/^mcp__s__x+_[0-9a-f]{8}$/);
  // The raw names stay for the call; the same list names the same way every run.
  expect(named[1]!.tool).toBe("create_issue");
  expect(toolNames([{ server: "s", tool: "x".repeat(80) }])[0]!.name).toBe(named[2]!.name);
});

test("tool parameters: passed through, $schema dropped, type and properties added when missing", () => {
  expect(toolParameters({ $schema: "https://json-schema.org/draft/2020-12/schema", properties: { q: { type: "string" } }, required: ["q"] })).toEqual({
    type: "object",
    properties: { q: { type: "string" } },
    required: ["q"],
  });
  expect(toolParameters(undefined)).toEqual({ type: "object", properties: {} });
  // Not an object: left for the API to refuse (the tool is then dropped), never silently rewritten.
  expect(toolParameters({ type: "array", items: {} })).toEqual({ type: "array", items: {} });
});

test("a call's result: text, images named and kept, resources inlined, structured content when no text, capped", () => {
  const out = callResultOutput({
    content: [
      { type: "text", text: "hello" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
      { type: "resource_link", name: "doc", uri: "file:///b" },
    ],
    isError: true,
  });
  expect(out.output).toBe("hello\n[image 1: image/png, 8 B]\n[resource file:///a.txt]\ninside\n[resource link doc file:///b]");
  expect(out.images).toEqual([{ mediaType: "image/png", data: "iVBORw0KGgo=" }]);
  expect(out.isError).toBe(true);
  expect(callResultOutput({ content: [], structuredContent: { n: 1 } }).output).toBe('{"n":1}');
  const big = callResultOutput({ content: [{ type: "text", text: "a".repeat(2_000_000) }] }).output;
  expect(big.length).toBeLessThan(31_000);
  expect(big).toContain("chars cut from the middle of the output");
});

test("a result with an image goes as input_image to a model with vision, as a line to one without", () => {
  const result = { callId: "c1", output: "see", images: [{ mediaType: "image/png", data: "AAAA" }] };
  expect(resultItem(result, "gpt-5")).toEqual({
    type: "function_call_output",
    call_id: "c1",
    output: [{ type: "input_text", text: "see" }, { type: "input_image", image_url: "data:image/png;base64,AAAA", detail: "auto" }],
  } as never);
  expect(resultItem(result, "o3-mini")).toEqual({ type: "function_call_output", call_id: "c1", output: "see\n[the image is not shown: o3-mini takes no images]" });
});

test("config: the .mcp.json shape, closed with did-you-mean, one kind per server", () => {
  const ok = mcpFileSchema.safeParse({ mcpServers: { a: { command: "x", args: ["1"], env: { K: "v" } }, b: { type: "http", url: "https://h/mcp", headers: { H: "1" } } } });
  expect(ok.success).toBe(true);
  const typo = mcpFileSchema.safeParse({ mcpServers: { a: { command: "x", enabledTool: ["t"] } } });
  expect(typo.error?.issues[0]?.message).toBe('unknown key "enabledTool"; did you mean "enabledTools"?');
  expect(serverConfigProblem({ command: "x", url: "https://h" })).toContain('both "command" and "url"');
  expect(serverConfigProblem({ url: "https://h", env: {} })).toBe('"env" is for a program (command)');
  expect(serverConfigProblem({ url: "https://h", sandbox: "read-only" })).toBe('"sandbox" is for a program (command)');
  expect(serverConfigProblem({ command: "x", sandbox: "read-only" })).toBeUndefined();
  expect(mcpFileSchema.safeParse({ mcpServers: { a: { type: "sse", url: "https://h" } } }).error?.issues[0]?.message).toContain("HTTP+SSE transport is not supported");
});

test("a plan: the commands' env plus the server's own, ${VAR} expanded, the bearer token from its variable", () => {
  const plan = planServer(
    { name: "a", origin: "config.json", config: { command: "srv", args: ["${HOME}/x"], env: { TOKEN: "${MY_TOKEN}" }, toolTimeout: 5 } },
    { cwd: "/p", env: { HOME: "/h", MY_TOKEN: "t0k", OPENAI_API_KEY: "sk-1" }, baseEnv: { PATH: "/bin" } },
  );
  expect(plan).toMatchObject({ launch: { kind: "stdio", command: "srv", args: ["/h/x"], cwd: "/p", env: { PATH: "/bin", TOKEN: "t0k" } }, toolTimeoutMs: 5000, maxToolTimeoutMs: 50_000, startupTimeoutMs: 10_000 });
  expect(JSON.stringify(plan)).not.toContain("sk-1");
  expect(planServer({ name: "h", origin: "x", config: { url: "https://h/mcp", bearerTokenEnv: "GH" } }, { cwd: "/", env: { GH: "abc" }, baseEnv: {} })).toMatchObject({ launch: { headers: { Authorization: "Bearer abc" } } });
  expect(planServer({ name: "h", origin: "x", config: { url: "https://h/mcp", bearerTokenEnv: "GH" } }, { cwd: "/", env: {}, baseEnv: {} })).toMatchObject({ problem: 'MCP server "h" (x) did not start: bearerTokenEnv names GH, which is not set; export it or remove the key' });
  expect(toolEnabled({ enabledTools: ["a"], disabledTools: [] }, "b")).toBe(false);
  expect(toolEnabled({ disabledTools: ["b"] }, "b")).toBe(false);
});

test("the API's refusal of a tool's schema names the tool to drop", () => {
  expect(rejectedToolName({ message: "400 Invalid schema for function 'mcp__h__bad': In context=('properties', 'xs'), array schema missing items.", code: "invalid_function_parameters", retryable: false })).toBe("mcp__h__bad");
  expect(rejectedToolName({ message: "400 other", code: "invalid_value", retryable: false })).toBeUndefined();
});

test("a project's server is asked about with what it would run and be handed, as written", () => {
  const question = approvalQuestion({ entry: { name: "db", origin: ".mcp.json", project: true, config: { command: "npx", args: ["-y", "db-mcp"], env: { KEY: "${OPENAI_API_KEY}" } } }, hash: "h" });
  expect(question).toBe('.mcp.json asks to start the MCP server "db": npx -y db-mcp (KEY=${OPENAI_API_KEY}) — start it? (kept for this exact definition)');
  const elsewhere = approvalQuestion({ entry: { name: "s", origin: ".mcp.json", project: true, config: { command: "./server.sh", cwd: "../other" } }, hash: "h" });
  expect(elsewhere).toBe('.mcp.json asks to start the MCP server "s": ./server.sh in ../other — start it? (kept for this exact definition)');
});

test("an image in a result weighs as much as the model reads of it, not its base64", () => {
  const messages: Message[] = [
    { role: "user", text: "look" },
    { role: "assistant", model: "gpt-5", parts: [{ type: "tool-call", callId: "c1", name: "mcp__ev__shot", arguments: "{}" }] },
    { role: "tool", results: [{ callId: "c1", output: "[image 1: image/png, 1 MiB]", images: [{ mediaType: "image/png", data: "A".repeat(1_400_000) }] }] },
  ];
  const entry = wireEntry(messages, 1, "gpt-5");
  expect(entry.chars).toBeLessThan(7000);
  expect(entry.chars).toBeGreaterThan(6000);
});

test("an image is kept only when its bytes are a PNG, JPEG, GIF or WebP, and goes as what it is", () => {
  const b64 = (bytes: number[] | string) => Buffer.from(typeof bytes === "string" ? bytes : Uint8Array.from(bytes)).toString("base64");
  expect(imageType(b64([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe("image/jpeg");
  expect(imageType(b64("GIF89a......"))).toBe("image/gif");
  expect(imageType(b64("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
  expect([imageType(b64("<html></html>")), imageType("iVBORw0KGgo=\"onerror"), imageType("")]).toEqual([undefined, undefined, undefined]);
  const out = callResultOutput({ content: [{ type: "image", data: b64([0xff, 0xd8, 0xff, 0xdb]), mimeType: "image/png" }, { type: "image", data: b64("<svg/>"), mimeType: "image/svg+xml" }] });
  expect(out.images).toEqual([{ mediaType: "image/jpeg", data: b64([0xff, 0xd8, 0xff, 0xdb]) }]);
  expect(out.output).toBe("[image 1: image/jpeg, 4 B]\n[image image/svg+xml, 6 B: left out, it is no PNG, JPEG, GIF or WebP image]");
});
