/**
 * Issue 12: edit_file and apply_patch change the text they are asked to and no other byte: a UTF-8
 * byte-order mark stays, each line keeps its own ending (CRLF, LF, none at the end), and a file they
 * cannot write back unchanged — not UTF-8 (Latin-1), or binary anywhere — is refused, bytes untouched.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { applyPatch } from "../../../../src/tools/files/apply-patch.ts";
import { editFile } from "../../../../src/tools/files/edit-file.ts";
import { readFile } from "../../../../src/tools/files/read-file.ts";
import { writeFile } from "../../../../src/tools/files/write-file.ts";
import { call, tempProject, toolError } from "../../../support/temp-project.ts";

let project: ReturnType<typeof tempProject>;
afterEach(() => project.cleanup());
const bytes = (p: string) => readFileSync(join(project.root, p));
const latin1 = (text: string) => Buffer.from(text, "latin1");
const patch = (path: string, ...lines: string[]) => ({ patch: ["*** Begin Patch", `*** Update File: ${path}`, ...lines, "*** End Patch"].join("\n") });
const edit = (path: string, old_string: string, new_string: string) => ({ path, old_string, new_string });

const BOM = "\uFEFF";
// 20 KiB of text, then a NUL: past the 8 KiB git looks at.
const LATE_NUL = Buffer.concat([Buffer.from("text line\n".repeat(2048)), Buffer.from([0]), Buffer.from("tail\n")]);

describe("a byte-order mark stays", () => {
  test("edit_file", async () => {
    project = tempProject({ "bom.txt": `${BOM}one\ntwo\n` });
    expect((await call(editFile, edit("bom.txt", "two", "2"), project.ctx())).output).toBe("Edited bom.txt: +1 −1 lines");
    expect(bytes("bom.txt")).toEqual(Buffer.from(`${BOM}one\n2\n`));
  });
  test("apply_patch, editing the first line", async () => {
    project = tempProject({ "bom.txt": `${BOM}one\ntwo\n` });
    await call(applyPatch, patch("bom.txt", "-one", "+1", " two"), project.ctx());
    expect(bytes("bom.txt")).toEqual(Buffer.from(`${BOM}1\ntwo\n`));
  });
});

describe("CRLF lines stay CRLF, a missing final newline stays missing", () => {
  test("edit_file: new_string's \\n becomes \\r\\n", async () => {
    project = tempProject({ "w.txt": "one\r\ntwo\r\nthree" });
    await call(editFile, edit("w.txt", "two\nthree", "2\n2b\n3"), project.ctx());
    expect(bytes("w.txt")).toEqual(Buffer.from("one\r\n2\r\n2b\r\n3"));
  });
  test("apply_patch", async () => {
    project = tempProject({ "w.txt": "one\r\ntwo\r\nthree" });
    await call(applyPatch, patch("w.txt", " one", "-two", "+2", "+2b", " three"), project.ctx());
    expect(bytes("w.txt")).toEqual(Buffer.from("one\r\n2\r\n2b\r\nthree"));
    await call(applyPatch, patch("w.txt", "@@", "+four"), project.ctx());
    expect(bytes("w.txt")).toEqual(Buffer.from("one\r\n2\r\n2b\r\nthree\r\nfour"));
  });
});

describe("mixed line endings: each replacement takes the ending where it starts, other lines keep theirs", () => {
  const mixed = "a\r\nb\nc\r\nd\n";
  test("edit_file", async () => {
    project = tempProject({ "m.txt": mixed });
    await call(editFile, edit("m.txt", "b", "B1\nB2"), project.ctx());
    expect(bytes("m.txt")).toEqual(Buffer.from("a\r\nB1\nB2\nc\r\nd\n"));
    // old_string spans a CRLF and an LF break; new_string's breaks take the first one's ending.
    await call(editFile, edit("m.txt", "a\nB1\nB2", "x\ny"), project.ctx());
    expect(bytes("m.txt")).toEqual(Buffer.from("x\r\ny\nc\r\nd\n"));
    await call(editFile, { path: "m.txt", old_string: "d", new_string: "D1\nD2", replace_all: true }, project.ctx());
    expect(bytes("m.txt")).toEqual(Buffer.from("x\r\ny\nc\r\nD1\nD2\n"));
  });
  test("apply_patch", async () => {
    project = tempProject({ "m.txt": mixed });
    await call(applyPatch, patch("m.txt", " a", "-b", "+B1", "+B2", " c"), project.ctx());
    expect(bytes("m.txt")).toEqual(Buffer.from("a\r\nB1\nB2\nc\r\nd\n"));
    await call(applyPatch, patch("m.txt", " B2", "-c", "+C"), project.ctx());
    expect(bytes("m.txt")).toEqual(Buffer.from("a\r\nB1\nB2\nC\r\nd\n"));
  });
});

describe("a file that is not UTF-8 is refused, not rewritten", () => {
  const message = (path: string) =>
    `${path} is not UTF-8 text (byte 0xE9 on line 2 is not valid UTF-8; Latin-1 or UTF-16?), so editing it would damage it. ` +
    "Nothing was changed; use write_file to replace all of it, or convert it first (e.g. iconv in bash).";
  test("edit_file", async () => {
    project = tempProject({ "l.txt": latin1("menu\ncafé crème\n") });
    expect(await toolError(editFile, edit("l.txt", "menu", "carte"), project.ctx())).toBe(message("l.txt"));
    expect(bytes("l.txt")).toEqual(latin1("menu\ncafé crème\n"));
  });
  test("apply_patch, with the other file of the patch left alone too", async () => {
    project = tempProject({ "l.txt": latin1("menu\ncafé crème\n"), "ok.txt": "fine\n" });
    const text = ["*** Begin Patch", "*** Update File: ok.txt", "-fine", "+changed", "*** Update File: l.txt", "-menu", "+carte", "*** End Patch"].join("\n");
    expect(await toolError(applyPatch, { patch: text }, project.ctx())).toBe(
      `The patch was not applied; no file was changed.\nUpdate File l.txt: ${message("l.txt")}\nRead the files again and resend the whole patch with corrected hunks.`,
    );
    expect(bytes("l.txt")).toEqual(latin1("menu\ncafé crème\n"));
    expect(bytes("ok.txt")).toEqual(Buffer.from("fine\n"));
  });
  test("overlong forms and lone surrogates are not UTF-8 either; a 4-byte character is", async () => {
    project = tempProject({ "o.txt": Buffer.from([0x61, 0x0a, 0xc0, 0xaf, 0x0a]), "s.txt": Buffer.from([0xed, 0xa0, 0x80]), "e.txt": "ok 🐈\n" });
    expect(await toolError(editFile, edit("o.txt", "a", "b"), project.ctx())).toStartWith("o.txt is not UTF-8 text (byte 0xC0 on line 2 ");
    expect(await toolError(editFile, edit("s.txt", "a", "b"), project.ctx())).toStartWith("s.txt is not UTF-8 text (byte 0xED on line 1 ");
    await call(editFile, edit("e.txt", "ok", "still ok"), project.ctx());
    expect(bytes("e.txt")).toEqual(Buffer.from("still ok 🐈\n"));
  });
  test("write_file replaces it whole: it states every byte", async () => {
    project = tempProject({ "l.txt": latin1("café\n") });
    expect((await call(writeFile, { path: "l.txt", content: "café\n" }, project.ctx())).output).toBe("Replaced l.txt, which was not UTF-8 text, with 1 line");
    expect(bytes("l.txt")).toEqual(Buffer.from("café\n"));
  });
});

describe("a NUL byte at 20 KiB makes a file binary", () => {
  const refused = "big.bin is a binary file; it cannot be read or edited as text.";
  test("edit_file, apply_patch and read_file refuse it; the bytes stay", async () => {
    project = tempProject({ "big.bin": LATE_NUL });
    expect(await toolError(editFile, edit("big.bin", "tail", "end"), project.ctx())).toBe(refused);
    expect(await toolError(applyPatch, patch("big.bin", "-tail", "+end"), project.ctx())).toBe(
      `The patch was not applied; no file was changed.\nUpdate File big.bin: ${refused}\nRead the files again and resend the whole patch with corrected hunks.`,
    );
    expect(await toolError(readFile, { path: "big.bin" }, project.ctx())).toBe(refused);
    expect(bytes("big.bin")).toEqual(LATE_NUL);
  });
});
