/**
 * Issue 34's figure: what a child agent costs. Print mode through dist/shiro against the strict local
 * server: a parent answering at once, a parent handing one job to a child, and four children at once
 * (each child one model call). The difference is a child's own start — its session log, prompt and
 * tools — since the scripted model answers at once.
 */
import { rmSync } from "node:fs";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { firstUserText, visibleOutputs } from "../test/support/scripts.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import type { ScriptedModel } from "../test/support/turn.ts";
import { median } from "./median.ts";
import { ms, timeRun, type SpawnOptions } from "./process-figures.ts";

const RUNS = 10;

const model: ScriptedModel = ({ input }) => {
  const first = firstUserText(input);
  const children = Number(/^Hand out (\d+) jobs\.$/.exec(first)?.[1] ?? -1);
  if (children < 0) return { text: "child done" };
  if (children === 0 || visibleOutputs(input).some((o) => o.name === "task")) return { text: "all done" };
  return { calls: Array.from({ length: children }, (_, i) => ({ name: "task", arguments: { description: `job ${i}`, prompt: `Job ${i}.`, agent: null } })) };
};

export async function bench(): Promise<string[]> {
  ensureBinary();
  const server = await startStrictServer({ defaultModel: model });
  const dirs: string[] = [];
  const freshRun = (): SpawnOptions => {
    const [project, home] = [tempDir("bench-task"), tempDir("bench-task-home")];
    dirs.push(project, home);
    return { cwd: project, env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-bench", NO_COLOR: "1" } };
  };
  const figure = async (children: number) => {
    const cmd = [BINARY, "-p", `Hand out ${children} jobs.`];
    await timeRun(cmd, freshRun()); // warm-up
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timeRun(cmd, freshRun()));
    return { wall: median(runs.map((r) => r.wallMs)), cpu: median(runs.map((r) => r.cpuMs)) };
  };
  try {
    const [none, one, four] = [await figure(0), await figure(1), await figure(4)];
    return [
      `parent alone (1 model call): median ${ms(none.wall)} wall, ${ms(none.cpu)} CPU (${RUNS} runs)`,
      `one child (parent 2 calls + child 1): median ${ms(one.wall)} wall, ${ms(one.cpu)} CPU`,
      `four children at once (parent 2 + 4): median ${ms(four.wall)} wall, ${ms(four.cpu)} CPU; each child beyond the first ≈ ${ms((four.wall - one.wall) / 3)} wall`,
    ];
  } finally {
    await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}
