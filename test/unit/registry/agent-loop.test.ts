import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { AssistantMessage } from "../../../src/session/messages.ts";
import { memorySession } from "../../support/memory-session.ts";
import { run } from "../../../src/loop/run.ts";
import type { Authorize } from "../../../src/loop/run-tool-call.ts";
import type { Check } from "../../../src/guard/verdict.ts";
import { commitInstall } from "../../../src/registry/install.ts";
import { loadSkills } from "../../../src/registry/load-skills.ts";
import { loadPluginChecks } from "../../../src/registry/plugin-checks.ts";
import { createSkillTool } from "../../../src/registry/skill-tool.ts";
import { skillsInstructions } from "../../../src/registry/skills-instructions.ts";
import { validateBody } from "../../../src/registry/validate-body.ts";
import { defineTool, type AnyTool } from "../../../src/tools/tool.ts";
import type { RequestBody } from "../../../src/wire/model-stream.ts";
import { serialiseInput } from "../../../src/wire/serialise-input.ts";
import { pluginText, removeDir, sha256, skillText, tempHome } from "../../support/registry-fixture.ts";
import { noSecrets } from "../../support/no-secrets.ts";

// In-process stand-in for the binary end-to-end test: the real agent loop, a real `sh`, a scripted model.
let home: string;
let root: string;
beforeEach(() => {
  home = tempHome();
  root = tempHome();
});
afterEach(() => {
  removeDir(home);
  removeDir(root);
});

async function install(kind: "skill" | "plugin", name: string, text: string) {
  const entry = { name, description: "d", url: `https://registry.example/${name}` };
  const body = validateBody(kind, entry, new TextEncoder().encode(text));
  await commitInstall(home, { body, origin: { kind, name, indexUrl: "https://registry.example/i.json", entryUrl: entry.url, sha256: sha256(text), installedAt: new Date().toISOString() } });
}

const bashTool = defineTool({
  name: "bash",
  description: "Run a shell command.",
  schema: z.object({ command: z.string() }),
  kind: "exec",
  subject: ({ command }) => ({ command }),
  async run({ command }, ctx) {
    const proc = Bun.spawn(["sh", "-c", command], { cwd: ctx.root, stdout: "pipe" });
    return { output: await new Response(proc.stdout).text() };
  },
});

/** `--yolo`: everything is allowed, except what a link of the check chain denies. */
const yolo = (checks: Check[]): Authorize => async ({ tool, args, root }) => {
  const call = { tool: tool.name, kind: tool.kind, args, subject: tool.subject(args), root };
  const denial = checks.map((check) => check(call)).find((verdict) => verdict?.decision === "deny");
  return denial?.decision === "deny" ? { allowed: false, reason: denial.reason } : { allowed: true };
};

const toolCall = (name: string, args: unknown): AssistantMessage => ({
  role: "assistant",
  model: "m",
  parts: [{ type: "tool-call", callId: `call-${name}`, name, arguments: JSON.stringify(args) }],
});
const answer: AssistantMessage = { role: "assistant", model: "m", parts: [{ type: "text", text: "done" }] };

async function runScripted(script: AssistantMessage[], tools: AnyTool[], checks: Check[], instructions: string) {
  const bodies: RequestBody[] = [];
  const session = memorySession();
  const messages = session.messages;
  const events = run({
    messages,
    commit: session.commit,
    tools,
    root,
    maxSteps: 5,
    signal: new AbortController().signal,
    ...noSecrets,
    authorize: yolo(checks),
    buildRequest: session.recording((history) => ({ body: { model: "m", stream: true, instructions, input: serialiseInput(history, { model: "m" }) } })),
    stream: async function* (body) {
      bodies.push(structuredClone(body));
      yield { type: "done", message: script[bodies.length - 1]! };
    },
  });
  for await (const _ of events);
  return bodies;
}

test("an installed plugin refuses a matching bash call even with everything allowed", async () => {
  await install("plugin", "no-pwn", pluginText("no-pwn", [{ tools: ["bash"], commandPattern: "\\btouch\\s+pwned\\b", reason: "not that file" }]));
  const bodies = await runScripted([toolCall("bash", { command: "touch pwned" }), toolCall("bash", { command: "touch fine" }), answer], [bashTool], await loadPluginChecks(home), "");
  expect(existsSync(join(root, "pwned"))).toBe(false);
  expect(existsSync(join(root, "fine"))).toBe(true);
  const outputs = bodies.at(-1)!.input as { type: string; output?: string }[];
  expect(outputs.filter((item) => item.type === "function_call_output").map((item) => item.output)).toEqual(["Denied: plugin no-pwn: not that file", ""]);
});

test("an installed skill's body reaches the model only through the skill tool", async () => {
  await install("skill", "release", skillText("release", "How to cut a release.", "BODY-MARKER: tag, then push the tag."));
  const skills = await loadSkills({ home, root });
  const bodies = await runScripted([toolCall("skill", { name: "release" }), answer], [createSkillTool(() => loadSkills({ home, root }))], [], skillsInstructions(skills));
  const first = JSON.stringify(bodies[0]);
  expect(first).toContain("release: How to cut a release.");
  expect(first).not.toContain("BODY-MARKER");
  const second = bodies[1]!.input as { type: string; output?: string }[];
  expect(second.find((item) => item.type === "function_call_output")?.output).toBe("BODY-MARKER: tag, then push the tag.");
});
