/**
 * Issue 2's job figure: the four-step demo job (glob, two reads, write, answer) in print mode
 * through dist/shiro against the strict local server, process start to exit (aim: < 150 ms, < 80 MB),
 * and the bytes its requests sent.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { demoModel } from "../test/support/scripts.ts";
import { startStrictServer, type RecordedRequest } from "../test/support/strict-server.ts";
import { median } from "./median.ts";
import { mb, ms, peakRssKib, rssSource, timeRun, type SpawnOptions } from "./process-figures.ts";

const RUNS = 10;
const RSS_RUNS = 5;
const PROMPT = "Read my notes (todo and done) and write notes/summary.md listing both, then tell me what you did.";

export async function bench(): Promise<string[]> {
  ensureBinary();
  const server = await startStrictServer({ defaultModel: demoModel });
  const dirs: string[] = [];
  // Every run gets a fresh project and SHIRO_HOME, made before the clock starts.
  const freshRun = (): SpawnOptions => {
    const project = tempDir("bench-job");
    const home = tempDir("bench-job-home");
    dirs.push(project, home);
    mkdirSync(join(project, "notes"));
    writeFileSync(join(project, "notes/todo.txt"), "write the release notes\nanswer the support ticket about exports\nupgrade the CI image\n");
    writeFileSync(join(project, "notes/done.txt"), "fix the login redirect\nreview the caching pull request\n");
    return { cwd: project, env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-bench", NO_COLOR: "1" } };
  };
  const cmd = [BINARY, "-p", "--yolo", PROMPT];
  try {
    const before = server.calls;
    await timeRun(cmd, freshRun()); // warm-up
    if (server.calls - before !== 4) throw new Error(`the demo job made ${server.calls - before} model calls, expected 4`);
    const sent = wireFigures(server.requests.slice(-4));
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timeRun(cmd, freshRun()));
    let rss = 0;
    for (let i = 0; i < RSS_RUNS; i++) rss = Math.max(rss, await peakRssKib(cmd, freshRun()));
    return [
      `four-step print-mode job (4 model calls, local server): median ${ms(median(runs.map((r) => r.wallMs)))} wall, ${ms(median(runs.map((r) => r.cpuMs)))} CPU (${RUNS} runs); peak RSS ${mb(rss)}  [aim < 150 ms, < 80 MB]`,
      `(peak RSS: max of ${RSS_RUNS} runs via ${rssSource})`,
      ...sent,
    ];
  } finally {
    await server.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const size = (value: unknown) => Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value)).toLocaleString("en-US");

/** The bytes the job sent: each request, and what of each is the instructions and each tool (issue 21). */
function wireFigures(requests: RecordedRequest[]): string[] {
  const first = requests[0]!.body;
  const total = requests.reduce((n, q) => n + Buffer.byteLength(q.raw), 0);
  return [
    `bytes sent: ${requests.map((q) => size(q.raw)).join(" + ")} = ${total.toLocaleString("en-US")}  [aim ≤ 35,000]`,
    `  of each request: instructions ${size(first.instructions)}, tools ${size(first.tools)}: ${first.tools.map((t: { name: string }) => `${t.name} ${size(t)}`).join(", ")}`,
  ];
}
