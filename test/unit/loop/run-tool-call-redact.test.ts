import { describe, expect, test } from "bun:test";
import { z } from "zod";
import type { AgentEvent } from "../../../src/loop/events.ts";
import { createLiveRedactor } from "../../../src/secrets/live-redactor.ts";
import { createRedactor, type NamedValue, type Redactor } from "../../../src/secrets/redact.ts";
import { runToolCall, type CallOutcome } from "../../../src/loop/run-tool-call.ts";
import { defineTool, ToolError, type AnyTool } from "../../../src/tools/tool.ts";

const KEY = "sk-test-unit-0123456789";
const redactor = createRedactor([{ name: "OPENAI_API_KEY", value: KEY }]);

/** Streams the key split in two, then returns it in its output and its display (as a diff would). */
const leaky = defineTool({
  name: "leaky",
  description: "prints the key",
  schema: z.object({ fail: z.boolean().optional() }),
  kind: "read",
  subject: () => ({}),
  async run(args, ctx) {
    ctx.onOutput?.(`env: ${KEY.slice(0, 6)}`);
    await Bun.sleep(5);
    ctx.onOutput?.(`${KEY.slice(6)}\n`);
    if (args.fail) throw new ToolError(`bad key ${KEY}`);
    return { output: `key ${KEY}`, display: `+ ${KEY}` };
  },
});

async function drive(args: object, using: Redactor = redactor, tools: AnyTool[] = [leaky]): Promise<{ events: AgentEvent[]; outcome: CallOutcome }> {
  const gen = runToolCall(
    { type: "tool-call", callId: "c1", name: tools[0]!.name, arguments: JSON.stringify(args) },
    { tools, root: "/", signal: new AbortController().signal, authorize: async () => ({ allowed: true }), commit: () => {}, host: { env: {}, redactor: using } },
  );
  const events: AgentEvent[] = [];
  while (true) {
    const step = await gen.next();
    if (step.done) return { events, outcome: step.value };
    events.push(step.value);
  }
}

const streamed = (events: AgentEvent[]) => events.flatMap((e) => (e.type === "tool-output" ? [e.chunk] : [])).join("");

describe("runToolCall redacts every output", () => {
  test("streamed chunks, the result, its display and the outcome the model reads", async () => {
    const { events, outcome } = await drive({});
    expect(streamed(events)).toBe("env: [redacted OPENAI_API_KEY]\n");
    expect(events.at(-1)).toMatchObject({ type: "tool-result", output: "key [redacted OPENAI_API_KEY]", display: "+ [redacted OPENAI_API_KEY]" });
    expect(outcome.output).toBe("key [redacted OPENAI_API_KEY]");
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  test("an error a tool throws is redacted too", async () => {
    const { events, outcome } = await drive({ fail: true });
    expect(outcome).toMatchObject({ output: "bad key [redacted OPENAI_API_KEY]", isError: true });
    expect(JSON.stringify(events)).not.toContain(KEY);
  });
});

describe("a refreshable redactor", () => {
  test("is refreshed before and after each call: a secret the call itself brought in is hidden in its result", async () => {
    const known: NamedValue[] = [];
    const live = createLiveRedactor(() => known);
    const copies = defineTool({
      name: "copies",
      description: "copies a secret in, then prints it",
      schema: z.object({}),
      kind: "read",
      subject: () => ({}),
      async run() {
        known.push({ name: "prod.env", value: "brought-in-secret-1" });
        return { output: "brought-in-secret-1" };
      },
    });
    const { outcome } = await drive({}, live, [copies]);
    expect(outcome.output).toBe("[redacted prod.env]");
  });
});
