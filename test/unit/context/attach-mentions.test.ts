import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { attachMentions } from "../../../src/context/attach-mentions.ts";
import { IMAGE_MAX_BYTES } from "../../../src/files/image-of.ts";
import { GIF, PNG, pngOfSize } from "../../support/image-files.ts";
import { tempDir } from "../../support/run-shiro.ts";

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

test("a mention that cannot name a file (a NUL, a file used as a folder, a name too long) is text, not a crash", async () => {
  const r = await attachMentions(`see @\u0000there, @b.md/x and @${"a".repeat(5_000)}.txt, then @b.md`, project());
  expect(r.attached).toEqual(["b.md"]);
  expect(r.missing).toEqual(["@b.md/x", `@${"a".repeat(5_000)}.txt,`]);
  expect(r.refused).toEqual([]);
});

test("a binary file is refused by name and size; a text file with stray bytes is attached with them escaped, and says so", async () => {
  const dir = project();
  writeFileSync(join(dir, "bundle.zip"), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0]));
  writeFileSync(join(dir, "latin1.txt"), Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from(" crème brûlée".repeat(3))]));
  const r = await attachMentions("look at @bundle.zip and @latin1.txt", dir);
  expect(r.refused).toEqual(["bundle.zip is binary, not UTF-8 text (16 bytes)"]);
  expect(r.attached).toEqual(["latin1.txt"]);
  expect(r.images).toEqual([]);
  expect(r.notices).toEqual(["latin1.txt has 1 byte that is NUL or not UTF-8, sent as \\xNN"]);
  expect(r.text).toBe(`look at @bundle.zip and @latin1.txt\n\n<file path="latin1.txt">\ncaf\\xe9${" crème brûlée".repeat(3)}\n</file>`);
});

test("an image goes with the prompt as an image, by its bytes: a .png that is text is attached as the text it is, one too large is refused", async () => {
  const dir = project();
  mkdirSync(join(dir, "my shots"));
  writeFileSync(join(dir, "my shots/screen one.png"), PNG);
  writeFileSync(join(dir, "pic.jpg"), GIF);
  writeFileSync(join(dir, "notes.png"), "not an image at all\n");
  writeFileSync(join(dir, "huge.png"), pngOfSize(IMAGE_MAX_BYTES + 1));
  const r = await attachMentions('see @"my shots/screen one.png", @pic.jpg, @notes.png and @huge.png', dir);
  expect(r.images).toEqual([
    { mediaType: "image/png", data: PNG.toString("base64") },
    { mediaType: "image/gif", data: GIF.toString("base64") },
  ]);
  expect(r.attached).toEqual(["my shots/screen one.png", "pic.jpg", "notes.png"]);
  expect(r.refused).toEqual(["huge.png is an image of 10,485,761 bytes, over the 10 MiB one may be; it was not sent (a smaller copy can be)"]);
  // Images add nothing to the text; the text file does.
  expect(r.text).toBe('see @"my shots/screen one.png", @pic.jpg, @notes.png and @huge.png\n\n<file path="notes.png">\nnot an image at all\n\n</file>');
});

test("a file over 100,000 characters keeps its head and its tail, the cut marked in it and named once", async () => {
  const dir = project();
  const lines = Array.from({ length: 6_000 }, (_, i) => `line ${i + 1}: cc -c src/module_${i + 1}.c`);
  lines.push("ld: error: undefined symbol: frobnicate");
  writeFileSync(join(dir, "build.log"), lines.join("\n") + "\n");
  const r = await attachMentions("explain the failure in @build.log", dir);
  expect(r.attached).toEqual(["build.log"]);
  const body = r.text.slice(r.text.indexOf("\n", r.text.indexOf("<file")) + 1, -"\n</file>".length);
  expect(body.length).toBeLessThanOrEqual(100_000);
  expect(body).toStartWith("line 1: cc -c src/module_1.c\n");
  expect(body).toEndWith("ld: error: undefined symbol: frobnicate\n");
  const marker = /\n\[… ([\d,]+) lines \(([\d,]+) bytes\) of build\.log left out here …\]\n/.exec(body)!;
  expect(marker).not.toBeNull();
  expect(r.notices).toEqual([`build.log is too large to attach whole: ${marker[1]} lines (${marker[2]} bytes) left out of its middle (marked in the text)`]);
});
