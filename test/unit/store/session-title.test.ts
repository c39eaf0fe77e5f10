import { expect, test } from "bun:test";
import { titleOf } from "../../../src/store/session-title.ts";

// The title /sessions shows is what the person typed, not the file or log they attached to it.
test("a prompt's attached @file or piped stdin is left out of the session title", () => {
  const attached = 'summarise @notes/todo.txt\n\n<file path="notes/todo.txt">\nwrite the release notes\n</file>';
  expect(titleOf([{ role: "user", text: attached }])).toBe("summarise @notes/todo.txt");
  const piped = "why did this fail?\n\n<stdin>\nERROR: build failed\n</stdin>";
  expect(titleOf([{ role: "user", text: piped }])).toBe("why did this fail?");
  expect(titleOf([{ role: "user", text: "a\n\nplain   second paragraph" }])).toBe("a plain second paragraph");
});
