/**
 * Issue 30: the model reads files with secret values shown as `[redacted NAME]`; what it writes back must
 * put the person's bytes back where a marker stood for them, and never land a marker in a file. The pure
 * functions behind write_file, edit_file and apply_patch, with the real redactor.
 */
import { describe, expect, test } from "bun:test";
import { createRedactor } from "../../../../src/secrets/redact.ts";
import { ToolError } from "../../../../src/tools/tool.ts";
import { restoreWrite, writeContent } from "../../../../src/tools/files/write-content.ts";
import { editContent } from "../../../../src/tools/files/edit-content.ts";
import { patchContent } from "../../../../src/tools/files/patch-content.ts";
import { redactedView } from "../../../../src/tools/files/redacted-view.ts";
import { restoreMarkers } from "../../../../src/tools/files/restore-markers.ts";

const ONE = "tok-1111-aaaa-bbbb";
const TWO = "tok-2222-cccc-dddd";
const GH = "ghp_Zx81bQ2mN7pLk4Rt9VsW3yHc6JdE0fGa5uIo";
// Two values from .env share one marker; the token has its own.
const redactor = createRedactor([
  { name: ".env", value: ONE },
  { name: ".env", value: TWO },
  { name: "GITHUB_TOKEN", value: GH },
]);
const find = (text: string) => redactor.find(text);
const ENV = "[redacted .env]";
const TOKEN = "[redacted GITHUB_TOKEN]";

/** The message of the ToolError `run` throws. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof ToolError) return err.message;
    throw err;
  }
  throw new Error("it was not refused");
}

describe("Redactor.find", () => {
  test("says where each value is, what it is and its marker: exactly what text() replaces", () => {
    const s = `a ${ONE} b ${GH} ${TWO}`;
    const found = redactor.find(s);
    expect(found).toEqual([
      { at: s.indexOf(ONE), value: ONE, marker: ENV },
      { at: s.indexOf(GH), value: GH, marker: TOKEN },
      { at: s.indexOf(TWO), value: TWO, marker: ENV },
    ]);
    let rebuilt = s;
    for (const r of [...found].reverse()) rebuilt = rebuilt.slice(0, r.at) + r.marker + rebuilt.slice(r.at + r.value.length);
    expect(rebuilt).toBe(redactor.text(s));
    expect(createRedactor([], []).find(s)).toEqual([]);
  });
});

describe("redactedView", () => {
  test("shows values as markers, maps shown stretches back to the file, and knows marker-shaped text the file holds itself", () => {
    const original = `x=${ONE}\ndoc: [redacted NAME] is shown\n`;
    const view = redactedView(original, find(original));
    expect(view.text).toBe(`x=${ENV}\ndoc: [redacted NAME] is shown\n`);
    expect(view.held.map((h) => [h.marker, h.value, h.line, h.column])).toEqual([
      [ENV, ONE, `x=${ENV}`, 2],
      ["[redacted NAME]", "[redacted NAME]", "doc: [redacted NAME] is shown", 5],
    ]);
    expect(view.original(0, view.text.length)).toBe(original);
    expect(view.original(2, 2 + ENV.length)).toBe(ONE);
    expect(view.inside(3)?.marker).toBe(ENV);
    expect(view.inside(2)).toBeUndefined();
  });
});

describe("write_file's content (restoreWrite, writeContent)", () => {
  const original = [`# config ✓ ünïcode`, `API=${ONE}`, `OTHER=${TWO}`, `again=${ONE}`, `gh: ${GH}`, `last line`].join("\r\n");
  const shown = redactor.text(original);

  test("the view written back whole is the file's own bytes: same-named values, a value held twice, CRLF and no final newline", () => {
    const lf = shown.replaceAll("\r\n", "\n"); // what read_file shows has no \r
    const { bytes } = writeContent(lf, { text: original, bom: false }, find, "c.env.js");
    expect(Buffer.from(bytes)).toEqual(Buffer.from(original));
  });

  test("a byte-order mark the model never saw stays", () => {
    const { bytes } = writeContent("a\nb", { text: "a\nb", bom: true }, find, "b.txt");
    expect(Buffer.from(bytes)).toEqual(Buffer.from("\uFEFFa\nb"));
  });

  test("a changed line keeps the value its marker stood for on that line; unchanged lines are the file's own", () => {
    const edited = shown.replace("# config ✓ ünïcode", "# config, edited").replace(`OTHER=${ENV}`, `OTHER=${ENV} # the second`);
    expect(restoreWrite(edited, original, find, "c")).toBe(original.replace("# config ✓ ünïcode", "# config, edited").replace(`OTHER=${TWO}`, `OTHER=${TWO} # the second`));
  });

  test("a marker standing for one value in the file is that value anywhere, a new line too", () => {
    expect(restoreWrite(`${shown}\r\ncopy=${TOKEN}`, original, find, "c")).toBe(`${original}\r\ncopy=${GH}`);
  });

  test("a marker for several values on a new line no context tells apart is refused; one whose line does is restored", () => {
    expect(refusal(() => restoreWrite(`${shown}\r\nnew=${ENV}`, original, find, "c"))).toBe(
      `The new text holds \`${ENV}\` (line 7), a placeholder for one of several secret values in c, and its line does not tell which; nothing was written. Keep the lines holding it as they were read and change the others (use edit_file on the lines that do not hold it).`,
    );
    expect(restoreWrite(shown.replace(`OTHER=${ENV}`, `OTHER=${ENV}\r\nOTHER=${ENV}`), original, find, "c")).toBe(original.replace(`OTHER=${TWO}`, `OTHER=${TWO}\r\nOTHER=${TWO}`));
  });

  test("a marker for a value the file does not hold is refused, and so is any marker in a new file", () => {
    const plain = "nothing secret\n";
    expect(refusal(() => restoreWrite(`key=${TOKEN}\n`, plain, find, "p.txt"))).toBe(
      `The new text holds \`${TOKEN}\` (line 1), a placeholder for a secret value p.txt does not hold; nothing was written. Write it without the placeholder (edit around the secret: use edit_file on the lines that do not hold it).`,
    );
    expect(refusal(() => restoreWrite(`a\nkey=${ENV}\n`, undefined, find, "new.txt"))).toStartWith(`The new text holds \`${ENV}\` (line 2), a placeholder for a secret value new.txt does not hold;`);
    // Any name: a marker from a redactor since changed is a placeholder all the same.
    expect(refusal(() => restoreWrite("x=[redacted OLD_NAME]", undefined, find, "n"))).toContain("`[redacted OLD_NAME]`");
  });

  test("marker-shaped text the file holds as text stays text; content without markers is written as given", () => {
    const doc = "Secrets show as [redacted NAME].\n";
    expect(restoreWrite("Values show as [redacted NAME].\n", doc, find, "d.md")).toBe("Values show as [redacted NAME].\n");
    expect(restoreWrite("plain\n", original, find, "c")).toBe("plain\n");
  });

  test("lines shown alike over different values: kept as many, they pair in order; fewer is refused", () => {
    const twins = `A=${ONE}\nmid\nA=${TWO}\n`;
    const view = redactor.text(twins);
    expect(restoreWrite(view.replace("mid", "middle"), twins, find, "t")).toBe(twins.replace("mid", "middle"));
    expect(refusal(() => restoreWrite(view.replace(`A=${ENV}\n`, ""), twins, find, "t"))).toStartWith('The new text keeps 1 of the 2 lines reading "A=[redacted .env]", which hold different secret values');
    // The same value twice is no ambiguity.
    const same = `A=${ONE}\nA=${ONE}\n`;
    expect(restoreWrite(`A=${ENV}\n`, same, find, "s")).toBe(`A=${ONE}\n`);
  });
});

describe("edit_file's edit (editContent)", () => {
  const original = `const a = "${ONE}";\r\nconst b = "${TWO}";\r\n// end`;

  test("old_string copied with a marker matches; the change lands on the file's bytes, the secret kept", () => {
    const { updated } = editContent(original, { old_string: `const b = "${ENV}";\n// end`, new_string: `const b = "${ENV}"; // second\n// the end` }, find, "e.js");
    expect(updated).toBe(`const a = "${ONE}";\r\nconst b = "${TWO}"; // second\r\n// the end`);
  });

  test("a marker in new_string stands for what the replaced text held there, even where the file holds other values under its name", () => {
    const { updated } = editContent(original, { old_string: `"${ENV}";\nconst b`, new_string: `"${ENV}"; // a\nconst bee` }, find, "e.js");
    expect(updated).toBe(`const a = "${ONE}"; // a\r\nconst bee = "${TWO}";\r\n// end`);
  });

  test("over several lines each changed line keeps the value of the line it replaced; deleting every alike line is clear", () => {
    const { updated } = editContent(original, { old_string: `const a = "${ENV}";\nconst b = "${ENV}";`, new_string: `const a = "${ENV}";\nconst bee = "${ENV}";` }, find, "e.js");
    expect(updated).toBe(original.replace("const b", "const bee"));
    const twins = `A=${ONE}\nA=${TWO}\nrest\n`;
    expect(editContent(twins, { old_string: `A=${ENV}\nA=${ENV}\n`, new_string: "" }, find, "t").updated).toBe("rest\n");
    expect(refusal(() => editContent(twins, { old_string: `A=${ENV}\nA=${ENV}\n`, new_string: `A=${ENV}\n` }, find, "t"))).toStartWith("The new text keeps 1 of the 2 lines");
  });

  test("replace_all puts back each occurrence's own value", () => {
    const { updated, count } = editContent(original, { old_string: `"${ENV}"`, new_string: `String("${ENV}")`, replace_all: true }, find, "e.js");
    expect(count).toBe(2);
    expect(updated).toBe(`const a = String("${ONE}");\r\nconst b = String("${TWO}");\r\n// end`);
  });

  test("an old_string cutting a marker in two, and a marker the file does not hold, are refused", () => {
    expect(refusal(() => editContent(original, { old_string: 'redacted .env]";\nconst b', new_string: "x" }, find, "e.js"))).toBe(
      `old_string begins inside \`${ENV}\`, a placeholder for a secret value in e.js; include the whole placeholder or none of it.`,
    );
    expect(refusal(() => editContent(original, { old_string: "// end", new_string: `// ${TOKEN}` }, find, "e.js"))).toStartWith(`The new text holds \`${TOKEN}\` (line 3), a placeholder for a secret value e.js does not hold;`);
  });
});

describe("apply_patch's Update File (patchContent)", () => {
  const chunk = (oldLines: string[], newLines: string[]) => ({ oldLines, newLines, endOfFile: false });
  const original = `first\nkey = "${ONE}"\nsecond = "${TWO}"\ntoken = "${GH}"\nlast\n`;

  test("context lines holding secrets match as shown and stay the file's bytes; the change lands", () => {
    const result = patchContent(original, [chunk([`key = "${ENV}"`, `second = "${ENV}"`, `token = "${TOKEN}"`, "last"], [`key = "${ENV}"`, `second = "${ENV}"`, `token = "${TOKEN}"`, "last, changed"])], find, "p.toml");
    expect(result).toEqual({ ok: true, content: original.replace("last\n", "last, changed\n") });
  });

  test("a removed line's marker re-added in a changed line is the value it held, not the other one of the same name", () => {
    const result = patchContent(original, [chunk(["first", `key = "${ENV}"`, `second = "${ENV}"`], ["first", `key = "${ENV}"`, `second_renamed = "${ENV}"`])], find, "p.toml");
    expect(result).toEqual({ ok: true, content: original.replace("second =", "second_renamed =") });
  });

  test("a marker the file does not hold is refused", () => {
    expect(refusal(() => patchContent("a\n", [chunk(["a"], [`a ${TOKEN}`])], find, "p.txt"))).toStartWith(`The new text holds \`${TOKEN}\` (line 1), a placeholder for a secret value p.txt does not hold;`);
  });
});

describe("restoreMarkers", () => {
  test("only written pieces are searched: a kept stretch is the file's bytes whatever it shows", () => {
    const held = redactedView(`v=${ONE}`, find(`v=${ONE}`)).held;
    expect(restoreMarkers([{ kept: `v=${ONE}`, shown: `v=${ENV}` }, { written: `\nw=${ENV}`, replaced: [] }], held, "f")).toEqual({ text: `v=${ONE}\nw=${ONE}` });
  });
});
