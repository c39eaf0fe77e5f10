/**
 * What a long job writes, measured, not estimated: a 256-step job through the compiled binary under
 * strace, every byte its threads write into files under SHIRO_HOME summed from the system calls.
 * The log is appended to, never rewritten, so that stays within twice the final log's size.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { callingModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { toolHere } from "../../support/tool-here.ts";

const STEPS = 256;
const strace = toolHere("strace", Bun.which("strace"));
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ defaultModel: callingModel(STEPS, (i) => ({ name: "read_file", arguments: { path: "notes.txt", offset: (i % 20) + 1, limit: 5 } })) });
});
afterAll(() => server.stop());

// `write(7</home/x/sessions/y.jsonl>, "..."..., 3621) = 3621` (strace -y names each descriptor's file).
const WRITE = /^(?:write|pwrite64|writev|pwritev2?)\(\d+<([^>]*)>, .* = (\d+)$/;

/** Bytes written into files under `root`, from strace's per-thread output files `prefix.*`. */
function bytesWrittenUnder(dir: string, prefix: string, root: string): number {
  let total = 0;
  for (const name of readdirSync(dir).filter((n) => n.startsWith(`${prefix}.`)))
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      const m = WRITE.exec(line);
      if (m && m[1]!.startsWith(`${root}/`)) total += Number(m[2]);
    }
  return total;
}

test.skipIf(!strace)(`a ${STEPS}-step job writes at most twice its final log into SHIRO_HOME (strace: ${strace ? "found" : "not installed, skipped"})`, async () => {
  const cwd = tempDir("write-bytes");
  const home = tempDir("write-bytes-home");
  const traces = tempDir("write-bytes-trace");
  writeFileSync(join(cwd, "notes.txt"), Array.from({ length: 40 }, (_, i) => `note ${i}: remember to check the parser`).join("\n"));
  const proc = Bun.spawn([strace!, "-f", "-ff", "-y", "-qq", "-e", "trace=write,pwrite64,writev,pwritev,pwritev2", "-o", join(traces, "w"), BINARY, "-p", "--yolo", "--max-steps", "300", "read the notes"], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url, NO_COLOR: "1" },
  });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect({ code, stdout, stderr: stderr.split("\n").filter((l) => l.startsWith("!") || l.startsWith("error")) }).toEqual({ code: 0, stdout: "done\n", stderr: [] });
  expect(server.requests.length).toBe(STEPS + 1);

  const logs = readdirSync(join(home, "sessions")).filter((n) => n.endsWith(".jsonl"));
  expect(logs).toHaveLength(1);
  const logSize = statSync(join(home, "sessions", logs[0]!)).size;
  const written = bytesWrittenUnder(traces, "w", home);
  console.log(`${STEPS}-step job: ${written.toLocaleString("en-US")} bytes written under SHIRO_HOME, final log ${logSize.toLocaleString("en-US")} bytes (${(written / logSize).toFixed(2)}×)`);
  expect(written).toBeGreaterThanOrEqual(logSize); // the trace saw the log's own writes
  expect(written).toBeLessThanOrEqual(2 * logSize);
}, 120_000);
