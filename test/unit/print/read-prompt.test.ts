import { expect, test } from "bun:test";
import { readPrompt } from "../../../src/print/read-prompt.ts";

/** A stdin that yields each piece after its delay, then ends. */
async function* slowPipe(pieces: [delayMs: number, text: string][]): AsyncGenerator<Uint8Array> {
  for (const [delayMs, text] of pieces) {
    await Bun.sleep(delayMs);
    yield new TextEncoder().encode(text);
  }
}

test("stdin is read to its end across silences; the wait is named once, however many silences there are", async () => {
  const warnings: string[] = [];
  const input = await readPrompt({
    arg: "why?",
    stdin: slowPipe([[80, "first\n"], [10, "second\n"], [80, "third\n"]]),
    silentMs: 40,
    warn: (line) => warnings.push(line),
  });
  expect(input).toEqual({ prompt: "why?", context: "first\nsecond\nthird" });
  expect(warnings).toEqual(["waiting for stdin (nothing has arrived for 0.04 s); to run without it, pass < /dev/null"]);
});

test("stdin that keeps arriving is never warned about; without an argument it is the prompt", async () => {
  const warnings: string[] = [];
  const input = await readPrompt({ stdin: slowPipe([[5, "  fix "], [5, "the test\n\n"]]), silentMs: 1_000, warn: (line) => warnings.push(line) });
  expect(input).toEqual({ prompt: "  fix the test" }); // the first line's indent is the person's; trailing blank lines are not
  expect(warnings).toEqual([]);
});

test("a blank argument is refused before stdin is waited for", async () => {
  let read = false;
  async function* never(): AsyncGenerator<Uint8Array> {
    read = true;
    await new Promise(() => {});
  }
  await expect(readPrompt({ arg: "  ", stdin: never(), silentMs: 10, warn: () => {} })).rejects.toThrow("no prompt: pass it as an argument or pipe it on stdin");
  expect(read).toBe(false);
});

test("stdin that cannot be read is a usage error naming why", async () => {
  async function* directory(): AsyncGenerator<Uint8Array> {
    throw Object.assign(new Error("EISDIR: illegal operation on a directory, fstat"), { code: "EISDIR" });
  }
  await expect(readPrompt({ arg: "why?", stdin: directory(), silentMs: 1_000, warn: () => {} })).rejects.toThrow("cannot read stdin: EISDIR");
});

async function* pipe(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

test("binary stdin is never the prompt or its context: after an argument it is named and left out, alone it is a usage error", async () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
  const warnings: string[] = [];
  expect(await readPrompt({ arg: "what is this?", stdin: pipe(png), silentMs: 1_000, warn: (l) => warnings.push(l) })).toEqual({ prompt: "what is this?" });
  expect(warnings).toEqual(["stdin is binary, not UTF-8 text (12 bytes): not sent; the run goes on with the prompt alone"]);
  await expect(readPrompt({ stdin: pipe(png), silentMs: 1_000, warn: () => {} })).rejects.toThrow(
    "stdin is binary, not UTF-8 text (12 bytes): nothing was sent; pass the prompt as an argument (text in another encoding: convert it with iconv -t UTF-8 first)",
  );
});

test("a NUL in mostly-text stdin is sent as \\x00, never as a NUL, and named once", async () => {
  const warnings: string[] = [];
  const enc = (s: string) => new TextEncoder().encode(s);
  const input = await readPrompt({ stdin: pipe(enc("explain @"), new Uint8Array([0]), enc("build.log, the error at its end")), silentMs: 1_000, warn: (l) => warnings.push(l) });
  expect(input).toEqual({ prompt: "explain @\\x00build.log, the error at its end" });
  expect(warnings).toEqual(["stdin has 1 byte that is NUL or not UTF-8, sent as \\xNN"]);
});
