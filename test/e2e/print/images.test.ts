/**
 * Images in, in print mode (docs/images.md): `-i shot.png` and `@shot.png` send the file's bytes as an
 * `input_image` after the prompt's text; what is no image by its bytes, a secret, a missing file is
 * refused before anything is sent; a resumed session sends the image again from its log, which holds
 * its bytes once however many turns give it.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withPrintRun as withRun } from "../../support/print-run.ts";
import { dataUrlBytes, GIF, PNG } from "../../support/image-files.ts";
import { firstUserText } from "../../support/scripts.ts";

/** The user messages of a request: their text and the bytes and type of each image, in order. */
const prompts = (body: any) =>
  body.input
    .filter((i: any) => i.type === "message" && i.role === "user")
    .map((m: any) => ({
      text: m.content.filter((p: any) => p.type === "input_text").map((p: any) => p.text).join(""),
      images: m.content.filter((p: any) => p.type === "input_image").map((p: any) => ({ type: p.image_url.slice(5, p.image_url.indexOf(";")), bytes: dataUrlBytes(p.image_url), detail: p.detail })),
    }));

describe("-i and @: the person's images go with the prompt", () => {
  test.concurrent("-i shot.png sends an input_image holding the file's bytes after the prompt's text; a run without -i sends none", () =>
    withRun(async ({ server, cwd, run }) => {
      writeFileSync(join(cwd, "shot.png"), PNG);
      writeFileSync(join(cwd, "anim.gif"), GIF);
      const r = await run(["-p", "-i", "shot.png", "--image", "anim.gif", "what is on screen?"], {});
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(prompts(server.requests[0]!.body)).toEqual([
        {
          text: "what is on screen?",
          images: [
            { type: "image/png", bytes: PNG, detail: "auto" },
            { type: "image/gif", bytes: GIF, detail: "auto" },
          ],
        },
      ]);
      // The control: the same prompt without -i is text alone.
      const plain = await run(["-p", "what is on screen?"], {});
      expect(plain.code).toBe(0);
      expect(server.requests[1]!.body.input[0]).toEqual({ type: "message", role: "user", content: [{ type: "input_text", text: "what is on screen?" }] });
    }),
  );

  test.concurrent("a .png that is really text, a file that is no image, a secret, a missing file: one line each, exit 2, nothing sent", () =>
    withRun(async ({ server, cwd, run }) => {
      writeFileSync(join(cwd, "notes.png"), "these are notes, not pixels\n");
      writeFileSync(join(cwd, "bundle.zip"), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]));
      // A secret by its name, whatever its bytes: a real PNG, refused all the same.
      writeFileSync(join(cwd, "server.key"), PNG);
      const cases: [string, string][] = [
        ["notes.png", "shiro: -i notes.png: not a PNG, JPEG, GIF or WebP image by its bytes, whatever its name says\n"],
        ["bundle.zip", "shiro: -i bundle.zip: not a PNG, JPEG, GIF or WebP image by its bytes, whatever its name says\n"],
        ["server.key", "shiro: -i server.key: a secret file is never attached\n"],
        ["gone.png", "shiro: -i gone.png: no such file\n"],
      ];
      for (const [file, line] of cases) {
        const r = await run(["-p", "-i", file, "describe it"], {});
        expect([file, r.code, r.stdout, r.stderr]).toEqual([file, 2, "", line]);
      }
      expect(server.requests).toHaveLength(0);
    }),
  );

  test.concurrent("@shot.png in the prompt sends the image; @notes.png that is text is attached as its text", () =>
    withRun(async ({ server, cwd, run }) => {
      writeFileSync(join(cwd, "shot.png"), PNG);
      writeFileSync(join(cwd, "notes.png"), "not pixels\n");
      const r = await run(["-p", "compare @shot.png with @notes.png"], {});
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(prompts(server.requests[0]!.body)).toEqual([
        { text: 'compare @shot.png with @notes.png\n\n<file path="notes.png">\nnot pixels\n\n</file>', images: [{ type: "image/png", bytes: PNG, detail: "auto" }] },
      ]);
    }),
  );

  test.concurrent("a model that takes no images is told of the image in a line, and the person is told so", () =>
    withRun(async ({ server, cwd, run }) => {
      writeFileSync(join(cwd, "shot.png"), PNG);
      const r = await run(["-p", "-m", "gpt-3.5-turbo", "-i", "shot.png", "what is this?"], {});
      expect([r.code, r.stderr]).toEqual([0, "! gpt-3.5-turbo takes no images: it is told of the image in a line, not shown it\n"]);
      expect(firstUserText(server.requests[0]!.body.input)).toBe("what is this?\n[the image is not shown: gpt-3.5-turbo takes no images]");
      expect(JSON.stringify(server.requests[0]!.body)).not.toContain("input_image");
    }),
  );
});

test.concurrent("a resumed session sends the image again; its log holds the image's bytes once, however many turns give it", () =>
  withRun(async ({ server, cwd, run }) => {
    writeFileSync(join(cwd, "shot.png"), PNG);
    expect((await run(["-p", "-i", "shot.png", "what is this?"], {})).code).toBe(0);
    expect((await run(["-p", "-c", "-i", "shot.png", "and now?"], {})).code).toBe(0);
    expect((await run(["-p", "-c", "anything else?"], {})).code).toBe(0);
    const image = { type: "image/png", bytes: PNG, detail: "auto" };
    expect(prompts(server.requests[2]!.body)).toEqual([
      { text: "what is this?", images: [image] },
      { text: "and now?", images: [image] },
      { text: "anything else?", images: [] },
    ]);
    const sessions = join(cwd, "..", "home", "sessions");
    const [log] = readdirSync(sessions).filter((f) => f.endsWith(".jsonl"));
    const text = readFileSync(join(sessions, log!), "utf8");
    expect(text.split(PNG.toString("base64")).length - 1).toBe(1);
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    const [stored] = lines.filter((l) => l.type === "image");
    expect(stored).toMatchObject({ hash: new Bun.CryptoHasher("sha256").update(PNG).digest("hex"), mediaType: "image/png" });
    expect(lines.filter((l) => l.type === "user").map((l) => l.images)).toEqual([[stored.hash], [stored.hash], undefined]);
  }),
);
