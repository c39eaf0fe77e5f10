/**
 * Print mode's piped input, end to end: what `make 2>&1 | shiro -p "why did this fail?"` puts on the
 * wire. Each test has its own strict server (so its request count is exact) and its own temp dirs,
 * and the slow ones run side by side.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildLog, expectCut } from "../../support/cut-log.ts";
import { withPrintRun as withRun } from "../../support/print-run.ts";
import { estimateInputTokens } from "../../support/prompt-tokens.ts";
import { firstUserText } from "../../support/scripts.ts";
import type { StrictServer } from "../../support/strict-server.ts";

const WAITING = "waiting for stdin (nothing has arrived for 5 s); to run without it, pass < /dev/null";
const WINDOW = 20_000;

describe("stdin is read to its end, however long it is silent", () => {
  test.concurrent("data that starts after 1.5 s is in the first request, and no notice is given", () =>
    withRun(async ({ server, run }) => {
      const r = await run(["-p", "-m", "echo-model", "why did this fail?"], {
        stdin: async (stdin) => {
          await Bun.sleep(1_500);
          stdin.write("ld: error: undefined symbol: frobnicate\n");
          await stdin.end();
        },
      });
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(firstUserText(server.requests[0]!.body.input)).toBe("why did this fail?\n\n<stdin>\nld: error: undefined symbol: frobnicate\n</stdin>");
    }),
  );

  test.concurrent("data that starts after 8 s is in the first request; the wait is named once, within 6 s", () =>
    withRun(async ({ server, run }) => {
      let noticeAt = 0;
      const r = await run(["-p", "-m", "echo-model", "why did this fail?"], {
        stdin: async (stdin, live) => {
          noticeAt = await live.waitFor(() => live.stderr().includes(WAITING), 6_000);
          await Bun.sleep(8_000 - live.elapsedMs());
          stdin.write("make: *** [all] Error 1\n");
          await stdin.end();
        },
      });
      expect(noticeAt).toBeGreaterThanOrEqual(5_000);
      expect([r.code, r.stderr]).toEqual([0, `! ${WAITING}\n`]);
      expect(server.requests).toHaveLength(1);
      expect(firstUserText(server.requests[0]!.body.input)).toBe("why did this fail?\n\n<stdin>\nmake: *** [all] Error 1\n</stdin>");
    }),
  );

  // A CI runner's pipe that stays open and silent: shiro waits (it may be a slow build), says so once
  // after 5 s, and goes on as soon as the pipe closes.
  test.concurrent("an open silent pipe gets the waiting notice within 6 s, and the run goes on once it closes", () =>
    withRun(async ({ server, run }) => {
      let noticeAt = 0;
      const r = await run(["-p", "-m", "echo-model", "no input here"], {
        stdin: async (stdin, live) => {
          noticeAt = await live.waitFor(() => live.stderr().includes(WAITING), 6_000);
          await Bun.sleep(1_000);
          expect([live.stdout(), server.requests.length]).toEqual(["", 0]);
          await stdin.end();
        },
      });
      expect(noticeAt).toBeGreaterThanOrEqual(5_000);
      expect([r.code, r.stdout, r.stderr]).toEqual([0, "You said: no input here\n", `! ${WAITING}\n`]);
      expect(firstUserText(server.requests[0]!.body.input)).toBe("no input here");
    }),
  );

  test.concurrent("with --json the waiting notice is an event on stdout, not a stray stderr line", () =>
    withRun(async ({ run }) => {
      const r = await run(["-p", "--json", "-m", "echo-model", "quiet"], {
        stdin: async (stdin, live) => {
          await live.waitFor(() => live.stdout().includes("waiting for stdin"), 6_000);
          await stdin.end();
        },
      });
      const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
      expect(lines[0]).toEqual({ type: "notice", level: "warn", text: WAITING });
      expect(lines.at(-1)).toMatchObject({ type: "result", status: "done", text: "You said: quiet" });
      expect(r.stderr).toBe("");
    }),
  );
});

/** Checks a fitted stdin against the log and the one stderr line that names the cut. */
function expectStdinCut(sent: string, lines: string[], stderr: string) {
  const figures = expectCut(sent, lines, "stdin");
  expect(stderr).toBe(`! stdin is too large for the context window: ${figures} left out of its middle (marked in the text)\n`);
}

describe("stdin too large for the context window is cut before it is sent", () => {
  const lines = buildLog(3_000_000);
  const log = lines.join("\n") + "\n";
  const windowed = { windows: { "small-model": WINDOW } };
  const config = { contextWindow: WINDOW };

  /** One request, accepted, using a good part of the window but under the compaction threshold. */
  function expectOneFittingRequest(server: StrictServer) {
    expect(server.requests.map((q) => q.status)).toEqual([200]);
    const tokens = estimateInputTokens(server.requests[0]!.body);
    expect(tokens).toBeGreaterThan(WINDOW * 0.45);
    expect(tokens).toBeLessThan(WINDOW * 0.9);
  }

  test.concurrent("a 3 MB log after a prompt argument: head and tail in the first request, the middle named", () =>
    withRun(
      async ({ server, run }) => {
        expect(Buffer.byteLength(log)).toBeGreaterThan(3_000_000);
        const r = await run(["-p", "-m", "small-model", "why did this fail?"], { stdin: log });
        expect(r.code).toBe(0);
        expectOneFittingRequest(server);
        const text = firstUserText(server.requests[0]!.body.input);
        expect(text).toStartWith("why did this fail?\n\n<stdin>\n");
        expect(text).toEndWith("\n</stdin>");
        expectStdinCut(text.slice("why did this fail?\n\n<stdin>\n".length, -"\n</stdin>".length), lines, r.stderr);
      },
      windowed,
      config,
    ),
  );

  test.concurrent("a 3 MB log that is the whole prompt (cat big.log | shiro -p) is cut the same way", () =>
    withRun(
      async ({ server, run }) => {
        const r = await run(["-p", "-m", "small-model"], { stdin: log });
        expect(r.code).toBe(0);
        expectOneFittingRequest(server);
        expectStdinCut(firstUserText(server.requests[0]!.body.input), lines, r.stderr);
      },
      windowed,
      config,
    ),
  );
});

describe("@path in a print-mode prompt", () => {
  const SECRET = "API_TOKEN=canary-9c1e0f";

  function project(cwd: string) {
    writeFileSync(join(cwd, "notes.txt"), "NOTE-CONTENT-7f3\n");
    writeFileSync(join(cwd, "other.txt"), "OTHER-CONTENT-2b8\n");
    writeFileSync(join(cwd, ".env"), `${SECRET}\n`);
  }

  test.concurrent("the argument's mentions attach; a secret and a missing file are named on stderr; a piped log's do not attach", () =>
    withRun(async ({ server, cwd, run }) => {
      project(cwd);
      const r = await run(["-p", "-m", "echo-model", "summarise @notes.txt, not @.env or @missing.txt"], { stdin: "build log mentions @other.txt\n" });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("! not attached: .env: a secret file is never attached\n! not a file, sent as text: @missing.txt\n");
      expect(firstUserText(server.requests[0]!.body.input)).toBe(
        'summarise @notes.txt, not @.env or @missing.txt\n\n<file path="notes.txt">\nNOTE-CONTENT-7f3\n\n</file>\n\n<stdin>\nbuild log mentions @other.txt\n</stdin>',
      );
      for (const q of server.requests) expect(q.raw).not.toContain("canary-9c1e0f");
    }),
  );

  test.concurrent("a prompt piped on stdin is typed too: its mentions attach", () =>
    withRun(async ({ server, cwd, run }) => {
      project(cwd);
      const r = await run(["-p", "-m", "echo-model"], { stdin: "what is in @notes.txt and @.env?\n" });
      expect([r.code, r.stderr]).toEqual([0, "! not attached: .env: a secret file is never attached\n"]);
      expect(firstUserText(server.requests[0]!.body.input)).toBe('what is in @notes.txt and @.env?\n\n<file path="notes.txt">\nNOTE-CONTENT-7f3\n\n</file>');
      for (const q of server.requests) expect(q.raw).not.toContain("canary-9c1e0f");
    }),
  );
});
