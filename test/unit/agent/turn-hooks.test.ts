import { expect, test } from "bun:test";
import type { SessionHooks } from "../../../src/hooks/create-hooks.ts";
import { turnHooks } from "../../../src/agent/turn-hooks.ts";
import { createRedactor } from "../../../src/secrets/redact.ts";

const SECRET = "hook-read-secret-42";
const redactor = createRedactor([{ name: ".env", value: SECRET }]);
const hooks = {
  sessionStart: async () => `start context: ${SECRET}`,
  prompt: async () => ({ context: `prompt context: ${SECRET}` }),
} as unknown as SessionHooks;

test("what hooks add to a prompt is redacted like a tool's output; the person's own words go as written (issue 30)", async () => {
  const typed = `Why does ${SECRET} fail? Cite file:line.`;
  const submitted = await turnHooks(hooks, "startup", redactor.text).submit(typed, new AbortController().signal);
  expect(submitted).toEqual({ prompt: `${typed}\n\nstart context: [redacted .env]\n\nprompt context: [redacted .env]` });
});
