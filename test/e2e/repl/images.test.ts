/**
 * Images in the REPL (docs/images.md): a pasted path to an image — as a terminal pastes a dropped file,
 * quoted — becomes one placeholder in the prompt and goes as the image; `shiro -i shot.png` opens with
 * it in the prompt; an `-i` that is no image stops shiro before the REPL opens.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { dataUrlBytes, PNG } from "../../support/image-files.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.stop());

const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;
/** The newest prompt of the newest request: its text and the bytes of each image. */
const lastPrompt = () => {
  const user = server.requests.at(-1)!.body.input.filter((i: any) => i.type === "message" && i.role === "user").at(-1);
  return { text: user.content.filter((p: any) => p.type === "input_text").map((p: any) => p.text).join(""), images: user.content.filter((p: any) => p.type === "input_image").map((p: any) => dataUrlBytes(p.image_url)) };
};

/** A project with an image in a folder whose name has a space, and a text file named like one. */
function project(): string {
  const cwd = tempDir("repl-images");
  mkdirSync(join(cwd, "my shots"));
  writeFileSync(join(cwd, "my shots", "screen one.png"), PNG);
  writeFileSync(join(cwd, "notes.png"), "not pixels\n");
  return cwd;
}

test("a pasted path to an image is one placeholder in the prompt and goes as the image; a pasted path to text stays the text pasted", async () => {
  const cwd = project();
  await using repl = await startRepl({ cwd, baseUrl: server.url });
  await repl.type("what is in ", 1);
  // As GNOME Terminal pastes a file dropped on it: quoted, a space after.
  repl.write(paste(`'${join(cwd, "my shots", "screen one.png")}' `));
  await repl.waitFor(/› what is in \[image screen one\.png\]$/);
  const mark = repl.mark();
  repl.write(keys.enter);
  await repl.idle(mark);
  expect(lastPrompt()).toEqual({ text: 'what is in @"my shots/screen one.png"', images: [PNG] });
  expect(repl.screen()).toContain("› what is in [image screen one.png]\n");
  expect(repl.screen()).toContain("· attached my shots/screen one.png");
  // The control: a path to a file that is no image is pasted as the text it is.
  await repl.type("and ", 1);
  repl.write(paste(join(cwd, "notes.png")));
  await repl.waitFor(new RegExp(`› and ${join(cwd, "notes.png").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`));
  const again = repl.mark();
  repl.write(keys.enter);
  await repl.idle(again);
  expect(lastPrompt()).toEqual({ text: `and ${join(cwd, "notes.png")}`, images: [] });
  expect(await repl.quit()).toBe(0);
}, 30_000);

test("shiro -i opens with the image in the prompt, sent with what is typed after it", async () => {
  const cwd = project();
  await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-i", "my shots/screen one.png"], ready: /› \[image screen one\.png\] $/ });
  const mark = repl.mark();
  await repl.send("what is this?");
  await repl.idle(mark);
  expect(lastPrompt()).toEqual({ text: '@"my shots/screen one.png" what is this?', images: [PNG] });
  expect(await repl.quit()).toBe(0);
}, 30_000);

test("an -i that is no image by its bytes stops shiro in one line before the REPL opens", async () => {
  const cwd = project();
  const home = tempDir("repl-images-home");
  await using pty = spawnPty([BINARY, "-i", "notes.png"], { cwd, env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url } });
  expect(await pty.exited).toBe(2);
  expect(pty.screen().trim()).toBe("shiro: -i notes.png: not a PNG, JPEG, GIF or WebP image by its bytes, whatever its name says");
}, 30_000);
