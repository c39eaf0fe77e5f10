import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attachMentions } from "../../src/repl/attach-mentions.ts";
import { tempDir } from "../support/run-shiro.ts";

function project(): string {
  const dir = tempDir("mentions");
  mkdirSync(join(dir, "notes"));
  writeFileSync(join(dir, "notes/a.txt"), "ALPHA\n");
  writeFileSync(join(dir, "b.md"), "BETA\n");
  return dir;
}
const allowAll = () => undefined;

test("a mention followed by sentence punctuation still attaches its file", async () => {
  const r = await attachMentions("compare @notes/a.txt, then (@b.md).", project(), allowAll);
  expect(r.attached).toEqual(["notes/a.txt"]);
  const end = await attachMentions("look at @b.md.", project(), allowAll);
  expect(end.attached).toEqual(["b.md"]);
  expect(end.text).toBe('look at @b.md.\n\n<file path="b.md">\nBETA\n\n</file>');
});

test("a path-like mention that is not a file is reported; decorators, handles and e-mails are not", async () => {
  const r = await attachMentions("read @notes/typo.txt and @notes/ — @Component @alice mail me@example.com", project(), allowAll);
  expect(r.attached).toEqual([]);
  expect(r.missing).toEqual(["@notes/typo.txt", "@notes/"]);
  expect(r.text).toBe("read @notes/typo.txt and @notes/ — @Component @alice mail me@example.com");
});
