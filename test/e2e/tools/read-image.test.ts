/**
 * `read_file` of an image in the project (docs/images.md): the model is given the image itself when its
 * bytes are a PNG, JPEG, GIF or WebP, within the size cap; a `.png` that is text is read as text,
 * another binary is refused as before, and a secret is denied as any read of it is — the same bytes
 * under another name are shown, so it is the rule that refuses, not the bytes.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { IMAGE_MAX_BYTES } from "../../../src/files/image-of.ts";
import { secretProject } from "../../support/guard-projects.ts";
import { dataUrlBytes, PNG, pngOfSize } from "../../support/image-files.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const p = secretProject({ "notes.png": "1. pixels\n2. more pixels\n" });
afterAll(() => [p.outer, p.home].forEach((dir) => rmSync(dir, { recursive: true, force: true })));
writeFileSync(join(p.root, "shot.png"), PNG);
writeFileSync(join(p.root, "server.key"), PNG);
writeFileSync(join(p.root, "huge.png"), pngOfSize(IMAGE_MAX_BYTES + 1));
writeFileSync(join(p.root, "bundle.bin"), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]));

const reads = ["shot.png", "notes.png", "bundle.bin", "huge.png", "server.key", "shot.png"].map((path) => ({ name: "read_file", arguments: { path } }));
const job = await scriptedJob(reads, { cwd: p.root, home: p.home });

/** Each read's output as the last request carried it: its text and the bytes of each image. */
const outputs = (() => {
  const input: any[] = job.requests.at(-1)!.body.input;
  return input
    .filter((i) => i.type === "function_call_output")
    .map((o) => {
      const parts: any[] = typeof o.output === "string" ? [{ type: "input_text", text: o.output }] : o.output;
      return { text: parts.filter((q) => q.type === "input_text").map((q) => q.text).join(""), images: parts.filter((q) => q.type === "input_image").map((q) => dataUrlBytes(q.image_url)) };
    });
})();

test("a PNG is given to the model as the image it is; the same bytes read again are sent again", () => {
  expect(job.code).toBe(4);
  expect(outputs[0]).toEqual({ text: "[image: shot.png, image/png, 70 B]", images: [PNG] });
  expect(outputs[5]).toEqual(outputs[0]!);
});

test("a .png that is text is read as text; another binary is refused; an image over the cap is a line saying so", () => {
  expect(outputs[1]).toEqual({ text: "     1\t1. pixels\n     2\t2. more pixels\n", images: [] });
  expect(outputs[2]).toEqual({ text: "bundle.bin is a binary file; it cannot be read or edited as text.", images: [] });
  expect(outputs[3]).toEqual({ text: "huge.png is an image of 10,485,761 bytes, over the 10 MiB one may be; it was not sent (a smaller copy can be).", images: [] });
});

test("a secret holding the very bytes of shot.png is denied as any read of it is: no image goes", () => {
  expect(outputs[4]!.text).toStartWith("Denied: ");
  expect(outputs[4]!.images).toEqual([]);
});

test("the log holds the image's bytes once, and both results name it", () => {
  const sessions = join(p.home, "sessions");
  const text = readFileSync(join(sessions, readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!), "utf8");
  expect(text.split(PNG.toString("base64")).length - 1).toBe(1);
  const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
  const hash = lines.find((l) => l.type === "image").hash;
  expect(lines.filter((l) => l.type === "result" && l.images).map((l) => l.images)).toEqual([[hash], [hash]]);
});
