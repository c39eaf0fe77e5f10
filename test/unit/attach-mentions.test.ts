import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { attachMentions } from "../../src/context/attach-mentions.ts";
import { tempDir } from "../support/run-shiro.ts";

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(): string {
  const dir = tempDir("mentions");
  made.push(dir);
  mkdirSync(join(dir, "notes"));
  writeFileSync(join(dir, "notes/a.txt"), "ALPHA\n");
  writeFileSync(join(dir, "b.md"), "BETA\n");
  return dir;
}

test("a mention followed by sentence punctuation still attaches its file", async () => {
  const r = await attachMentions("compare @notes/a.txt, then (@b.md).", project());
  expect(r.attached).toEqual(["notes/a.txt"]);
  const end = await attachMentions("look at @b.md.", project());
  expect(end.attached).toEqual(["b.md"]);
  expect(end.text).toBe('look at @b.md.\n\n<file path="b.md">\nBETA\n\n</file>');
});

test("a path-like mention that is not a file is reported; decorators, handles and e-mails are not", async () => {
  const r = await attachMentions("read @notes/typo.txt and @notes/ — @Component @alice mail me@example.com", project());
  expect(r.attached).toEqual([]);
  expect(r.missing).toEqual(["@notes/typo.txt", "@notes/"]);
  expect(r.text).toBe("read @notes/typo.txt and @notes/ — @Component @alice mail me@example.com");
});

test("a secret is refused as written and through a symlink; an unreadable file is refused with its reason", async () => {
  const dir = project();
  writeFileSync(join(dir, ".env"), "TOKEN=hunter2\n");
  symlinkSync(join(dir, ".env"), join(dir, "config.txt"));
  // A regular file by stat that no one can read whole (EIO), root included.
  const r = await attachMentions("use @.env and @config.txt and @/proc/self/mem and @b.md", dir);
  expect(r.attached).toEqual(["b.md"]);
  expect(r.refused).toEqual([
    ".env: a secret file is never attached",
    "config.txt: a secret file is never attached",
    `${relative(dir, "/proc/self/mem")}: cannot be read (EIO)`,
  ]);
  expect(r.text).not.toContain("hunter2");
});
