/**
 * What plan mode costs a job: the same eight commands in print mode through dist/shiro against the
 * strict local server, approved (`--yolo`, workspace-write) and in plan mode (`--plan --yolo`: each
 * runs read-only), process start to exit, median of the runs; and the bytes of the first request
 * (instructions and tools) in each mode — plan mode sends fewer tools and a longer prompt.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { sequenceModel } from "../test/support/scripts.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import { median } from "./median.ts";
import { ms, timeRun, type SpawnOptions } from "./process-figures.ts";

const RUNS = 5;
const COMMANDS = 8;
const steps = Array.from({ length: COMMANDS }, (_, i) => ({ name: "bash", arguments: { command: `ls; cat README; echo step ${i} > /tmp/step.txt` } }));

export async function bench(): Promise<string[]> {
  ensureBinary();
  const server = await startStrictServer({ defaultModel: sequenceModel(steps, "done") });
  const dirs: string[] = [];
  const freshRun = (): SpawnOptions => {
    const project = tempDir("bench-plan");
    const home = tempDir("bench-plan-home");
    dirs.push(project, home);
    writeFileSync(join(project, "README"), "a project to plan in\n");
    return { cwd: project, env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-bench", NO_COLOR: "1" } };
  };
  try {
    const lines: string[] = [];
    for (const [label, flags] of [["approved (--yolo)", ["--yolo"]], ["plan mode (--plan --yolo)", ["--plan", "--yolo"]]] as const) {
      const cmd = [BINARY, "-p", ...flags, "run the eight commands"];
      const first = server.requests.length;
      await timeRun(cmd, freshRun()); // warm-up, and the request to size
      const body = server.requests[first]!.body;
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await timeRun(cmd, freshRun()));
      const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value)).toLocaleString("en-US");
      lines.push(
        `${label}: ${COMMANDS} commands, median ${ms(median(runs.map((r) => r.wallMs)))} wall, ${ms(median(runs.map((r) => r.cpuMs)))} CPU (${RUNS} runs); first request: instructions ${bytes(body.instructions)} B, ${body.tools.length} tools ${bytes(body.tools)} B`,
      );
    }
    return lines;
  } finally {
    await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
