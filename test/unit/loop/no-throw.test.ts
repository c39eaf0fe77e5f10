import { expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/loop/events.ts";
import { run, type RunOptions } from "../../../src/loop/run.ts";
import type { Message } from "../../../src/session/messages.ts";
import { noSecrets } from "../../support/no-secrets.ts";

const base = (over: Partial<RunOptions>): RunOptions => ({
  messages: [{ role: "user", text: "hi" }] as Message[],
  commit: () => {},
  tools: [],
  stream: async function* () {},
  buildRequest: () => ({ body: { model: "m", input: [], stream: true } as never }),
  authorize: async () => ({ allowed: true }),
  root: "/tmp",
  maxSteps: 3,
  signal: new AbortController().signal,
  ...noSecrets,
  ...over,
});

async function events(opts: RunOptions): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of run(opts)) out.push(e);
  return out;
}

test("a stream that throws ends the run with an error event and an error end, never a throw", async () => {
  const got = await events(base({ stream: async function* () { yield { type: "text-delta", delta: "par" } as never; throw new Error("socket gone"); } }));
  expect(got.find((e) => e.type === "error")).toMatchObject({ error: { message: "the model stream failed: socket gone" } });
  expect(got.at(-1)).toMatchObject({ type: "end", status: "error" });
});

test("a request builder that throws does too", async () => {
  const got = await events(base({ buildRequest: () => { throw new Error("no window"); } }));
  expect(got.map((e) => e.type)).toEqual(["error", "end"]);
  expect(got[0]).toMatchObject({ error: { message: "could not build the request: no window" } });
  expect(got[1]).toMatchObject({ status: "error", steps: 0 });
});
