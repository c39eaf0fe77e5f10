import { expect, test } from "bun:test";
import { resumedLine } from "../../../src/repl/session-commands.ts";

const session = (count: number) =>
  ({ id: "019a2c82-6e70-7000-8000-000000000001", model: "gpt-5", messages: Array.from({ length: count }, () => ({ role: "user", text: "x" })) });

test("the resumed line counts messages in good English", () => {
  expect(resumedLine(session(1))).toBe("resumed 019a2c82-6e70 · 1 message · gpt-5");
  expect(resumedLine(session(4))).toBe("resumed 019a2c82-6e70 · 4 messages · gpt-5");
});
