import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { keys } from "../../support/pty.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// A paste is one prompt however many lines it has, and a prompt can be typed over several lines.
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.stop());

const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;
const turns = () => server.requests.filter((r) => r.path === "/v1/responses");
const lastUserText = (body: any): string => {
  const user = body.input.filter((i: any) => i.type === "message" && i.role === "user").at(-1);
  return user.content.map((p: any) => p.text).join("");
};

describe("multi-line prompts in a real pty", () => {
  test("a bracketed paste of 3 lines is one prompt, shown whole and sent on Enter only", async () => {
    await using repl = await startRepl({ cwd: tempDir("paste"), baseUrl: server.url });
    const before = turns().length;
    // Terminals send a pasted newline as \r, the key Enter sends: inside the brackets it is text.
    repl.write(paste("line one\rline two\rline three"));
    await repl.waitFor(/› line one\n {2}line two\n {2}line three$/);
    await Bun.sleep(300);
    expect(turns().length).toBe(before);
    const mark = repl.mark();
    repl.write(keys.enter);
    await repl.waitFor("You said: line one", { since: mark });
    await repl.idle(mark);
    const sent = turns().slice(before);
    expect(sent).toHaveLength(1);
    expect(lastUserText(sent[0]!.body)).toBe("line one\nline two\nline three");
    expect(await repl.quit()).toBe(0);
  });

  test("a paste of 400 lines is shown collapsed, sent whole as one request, and recalled with ↑ as one entry", async () => {
    await using repl = await startRepl({ cwd: tempDir("paste"), baseUrl: server.url });
    const lines = Array.from({ length: 400 }, (_, i) => `    at frame${i} (src/module${i % 7}.ts:${i + 1}:3)`);
    const before = turns().length;
    await repl.type("why does this fail? ", 1);
    repl.write(paste(`${lines.join("\r")}\r`));
    await repl.waitFor(/› why does this fail\? \[pasted 400 lines\]$/);
    expect(repl.screen()).not.toContain("frame200");
    const mark = repl.mark();
    repl.write(keys.enter);
    await repl.idle(mark);
    const sent = turns().slice(before);
    expect(sent).toHaveLength(1);
    expect(lastUserText(sent[0]!.body)).toBe(`why does this fail? ${lines.join("\n")}`);
    // The transcript keeps the prompt as it was drawn.
    expect(repl.screen()).toContain("› why does this fail? [pasted 400 lines]\n");
    repl.write(keys.up);
    await repl.waitFor(/› \[pasted 400 lines\]$/);
    const again = repl.mark();
    repl.write(keys.enter);
    await repl.idle(again);
    expect(lastUserText(turns().at(-1)!.body)).toBe(`why does this fail? ${lines.join("\n")}`);
    expect(await repl.quit()).toBe(0);
  });

  test("Alt-Enter and a trailing backslash start a new line; the prompt is sent with its newlines and ↑ recalls it whole", async () => {
    await using repl = await startRepl({ cwd: tempDir("paste"), baseUrl: server.url });
    await repl.type("first line", 1);
    repl.write("\x1b\r"); // Alt-Enter
    await repl.type("second line\\", 1);
    repl.write(keys.enter);
    await repl.type("third line", 1);
    await repl.waitFor(/› first line\n {2}second line\n {2}third line$/);
    const mark = repl.mark();
    repl.write(keys.enter);
    await repl.idle(mark);
    expect(lastUserText(turns().at(-1)!.body)).toBe("first line\nsecond line\nthird line");
    repl.write(keys.up);
    await repl.waitFor(/› first line\n {2}second line\n {2}third line$/);
    // ↑ inside a multi-line prompt moves between its lines; editing there works.
    repl.write(keys.up);
    repl.write("\x1b[H"); // Home
    repl.write("my ");
    await repl.waitFor(/› first line\n {2}my second line\n {2}third line$/);
    const edited = repl.mark();
    repl.write(keys.enter);
    await repl.idle(edited);
    expect(lastUserText(turns().at(-1)!.body)).toBe("first line\nmy second line\nthird line");
    expect(await repl.quit()).toBe(0);
  });
});
