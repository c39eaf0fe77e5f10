/**
 * Print mode's input that is not plain text, end to end: binary stdin, a NUL after an `@`, and an
 * `@file` too large to attach whole. What crossed the wire is checked byte for byte: no request may
 * carry a NUL or a U+FFFD, the marks of binary data decoded as text.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildLog, expectCut } from "../../support/cut-log.ts";
import { withPrintRun } from "../../support/print-run.ts";
import { randomBytes } from "../../support/random-bytes.ts";
import { firstUserText } from "../../support/scripts.ts";
import type { StrictServer } from "../../support/strict-server.ts";

/** stdin written as bytes, then closed. */
const pipeBytes = (bytes: Uint8Array) => async (stdin: { write(b: Uint8Array): unknown; end(): unknown }) => {
  stdin.write(bytes);
  await stdin.end();
};

/** Neither a NUL (JSON's `\u0000`) nor U+FFFD, raw or escaped, in any request body. */
function expectCleanWire(server: StrictServer) {
  for (const q of server.requests) expect(q.raw).not.toMatch(/\\u0000|\\ufffd|\u0000|\ufffd/i);
}

describe("binary stdin is named and never sent", () => {
  test.concurrent("100 KB of random bytes after a prompt: one stderr line, the run goes on with the prompt alone", () =>
    withPrintRun(async ({ server, run }) => {
      const r = await run(["-p", "-m", "echo-model", "what is in this file?"], { stdin: pipeBytes(randomBytes(100_000)) });
      expect([r.code, r.stdout, r.stderr]).toEqual([
        0,
        "You said: what is in this file?\n",
        "! stdin is binary, not UTF-8 text (100,000 bytes): not sent; the run goes on with the prompt alone\n",
      ]);
      expect(server.requests).toHaveLength(1);
      expect(firstUserText(server.requests[0]!.body.input)).toBe("what is in this file?");
      expectCleanWire(server);
    }),
  );

  for (const [what, bytes] of [
    ["100 KB of random bytes", randomBytes(100_000)],
    ["4 KB of NULs", new Uint8Array(4_096)],
  ] as const)
    test.concurrent(`${what} as the whole prompt: exit 2 with one line saying what to do, nothing sent`, () =>
      withPrintRun(async ({ server, run }) => {
        const r = await run(["-p", "-m", "echo-model"], { stdin: pipeBytes(bytes) });
        expect([r.code, r.stdout, r.stderr]).toEqual([
          2,
          "",
          `shiro: stdin is binary, not UTF-8 text (${bytes.length.toLocaleString("en-US")} bytes): nothing was sent; pass the prompt as an argument (text in another encoding: convert it with iconv -t UTF-8 first)\n`,
        ]);
        expect(server.requests).toHaveLength(0);
      }),
    );
});

describe("an @ followed by a NUL in the prompt", () => {
  test.concurrent("piped prompt text with a NUL after its @: sent with the NUL escaped, each oddity named once", () =>
    withPrintRun(async ({ server, cwd, run }) => {
      writeFileSync(join(cwd, "build.log"), "ld: error: undefined symbol: frobnicate\n");
      const prompt = Buffer.concat([Buffer.from("explain the failure in @"), Buffer.from([0]), Buffer.from("build.log — the error is at its end\n")]);
      const r = await run(["-p", "-m", "echo-model"], { stdin: pipeBytes(prompt) });
      expect([r.code, r.stderr]).toEqual([0, "! stdin has 1 byte that is NUL or not UTF-8, sent as \\xNN\n! not a file, sent as text: @\\x00build.log\n"]);
      expect(firstUserText(server.requests[0]!.body.input)).toBe("explain the failure in @\\x00build.log — the error is at its end");
      expectCleanWire(server);
    }),
  );

  test.concurrent("a short `@` + NUL is binary by its share of NULs: exit 2, never an internal error", () =>
    withPrintRun(async ({ server, run }) => {
      const r = await run(["-p", "-m", "echo-model"], { stdin: pipeBytes(Buffer.from("hi @\0there")) });
      expect(r.code).toBe(2);
      expect(r.stderr).toStartWith("shiro: stdin is binary, not UTF-8 text (10 bytes): nothing was sent;");
      expect(server.requests).toHaveLength(0);
    }),
  );
});

test.concurrent("a mention no file can have (a file used as a folder, a name too long) is sent as text, not an internal error", () =>
  withPrintRun(async ({ server, cwd, run }) => {
    writeFileSync(join(cwd, "b.md"), "BETA\n");
    const long = `@${"a".repeat(5_000)}.txt`;
    const r = await run(["-p", "-m", "echo-model", `read @b.md/x and ${long}`], {});
    expect([r.code, r.stderr]).toEqual([0, `! not a file, sent as text: @b.md/x, ${long}\n`]);
    expect(firstUserText(server.requests[0]!.body.input)).toBe(`read @b.md/x and ${long}`);
  }),
);

describe("@file too large to attach whole", () => {
  test.concurrent("a 300 KB log whose last line matters: its head and tail are sent with the cut marked, and stderr names the cut once", () =>
    withPrintRun(async ({ server, cwd, run }) => {
      const lines = buildLog(300_000);
      writeFileSync(join(cwd, "build.log"), lines.join("\n") + "\n");
      const r = await run(["-p", "-m", "echo-model", "explain the failure in @build.log"], {});
      expect(r.code).toBe(0);
      const text = firstUserText(server.requests[0]!.body.input);
      const open = 'explain the failure in @build.log\n\n<file path="build.log">\n';
      expect(text).toStartWith(open);
      expect(text).toEndWith(`${lines.at(-1)}\n\n</file>`);
      const figures = expectCut(text.slice(open.length, -"\n\n</file>".length), lines, "build.log");
      expect(r.stderr).toBe(`! build.log is too large to attach whole: ${figures} left out of its middle (marked in the text)\n`);
    }),
  );
});
