/**
 * Issue 32: what a project's first look costs when the project is large — a 100,000-file git
 * repository (packed, as a clone leaves it, with 50 files modified, 50 untracked and an ignored
 * `.env`) and the same tree without git. In process: the first look (what a call that may write waits
 * for) and what the store holds after it. Through `dist/shiro`, each run with a new `SHIRO_HOME` (an
 * ephemeral CI runner: every run is a first look): a print-mode job whose one call is `grep` (read-only),
 * beside `rg` doing the same search, and one whose one call is a command that writes.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "./median.ts";
import { timeRun } from "./process-figures.ts";
import { createCheckpointStore } from "../src/checkpoint/checkpoint-store.ts";
import { createCheckpoints } from "../src/checkpoint/checkpoints.ts";
import { formatBytes } from "../src/text/format-bytes.ts";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { sequenceModel } from "../test/support/scripts.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import { wideTree } from "../test/support/wide-tree.ts";

const FILES = 100_000;
const RUNS = 3;
const GREP = { name: "grep", arguments: { pattern: "needle" } };
const WRITE = { name: "bash", arguments: { command: "echo written >> zzz/needle.txt" } };

export async function bench(): Promise<string[]> {
  ensureBinary();
  const base = mkdtempSync(join(tmpdir(), "shiro-bench-checkpoint-scale-"));
  const server = await startStrictServer({
    defaultModel: (req) => sequenceModel([JSON.stringify(req.input).includes("grep-job") ? GREP : WRITE], "done")(req),
  });
  try {
    const plain = join(base, "plain");
    const repo = join(base, "repo");
    wideTree(plain, FILES);
    gitRepo(repo);
    const lines = [`trees: ${FILES.toLocaleString("en-US")} files (+1), 100 to a folder; jobs: median of ${RUNS} runs, each with a new SHIRO_HOME`];
    for (const [label, root] of [["git repository", repo], ["plain tree    ", plain]] as const) {
      const look = await firstLook(root, join(base, `store-${label.trim()}`));
      const job = async (prompt: string, args: string[]) => {
        const walls: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const home = mkdtempSync(join(base, "home-"));
          const env = { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-bench", NO_COLOR: "1" };
          walls.push((await timeRun([BINARY, "-p", ...args, prompt], { cwd: root, env })).wallMs);
          rmSync(home, { recursive: true, force: true });
        }
        return median(walls);
      };
      const rgRuns: number[] = [];
      for (let i = 0; i < RUNS; i++) rgRuns.push((await timeRun(["rg", "--no-config", "-n", "needle"], { cwd: root })).wallMs);
      const rg = median(rgRuns);
      const grep = await job("grep-job", []);
      const write = await job("write-job", ["--yolo"]);
      lines.push(
        `${label}: first look ${(look.ms / 1000).toFixed(2)} s; store after it ${formatBytes(look.bytes)} in ${look.blobs.toLocaleString("en-US")} blobs`,
        `${label}: job grep (read-only) ${(grep / 1000).toFixed(2)} s [rg alone ${(rg / 1000).toFixed(2)} s]; job with a writing command ${(write / 1000).toFixed(2)} s`,
      );
    }
    return lines;
  } finally {
    await server.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

/** The first look of a project never seen: until a call that may write could run, and what the store then holds. */
async function firstLook(root: string, storeDir: string) {
  const store = createCheckpointStore(storeDir);
  const checkpoints = createCheckpoints({ root, store, warn: () => {} });
  const start = performance.now();
  checkpoints.beginTurn("bench", 1);
  await checkpoints.ready();
  const ms = performance.now() - start;
  checkpoints.endTurn();
  checkpoints.close();
  const blobsDir = join(storeDir, "blobs");
  let bytes = 0;
  let blobs = 0;
  for (const name of readdirSync(blobsDir, { recursive: true, encoding: "utf8" })) {
    const s = statSync(join(blobsDir, name));
    if (!s.isFile()) continue;
    bytes += s.size;
    blobs++;
  }
  return { ms, bytes, blobs };
}

/** The tree committed and packed (as a clone leaves it), then 50 files modified, 50 untracked and an ignored `.env`. */
function gitRepo(root: string) {
  wideTree(root, FILES);
  writeFileSync(join(root, ".gitignore"), ".env\n");
  const env = { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@x", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@x" };
  for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "tree"], ["repack", "-adq"], ["prune"]]) {
    const r = Bun.spawnSync(["git", ...args], { cwd: root, env, stdout: "ignore", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  }
  for (let i = 0; i < 50; i++) {
    appendFileSync(join(root, `d${String(i * 20).padStart(4, "0")}/f07.ts`), `// modified ${i}\n`);
    writeFileSync(join(root, `d${String(i * 20).padStart(4, "0")}/untracked${i}.ts`), `export const untracked = ${i};\n`);
  }
  writeFileSync(join(root, ".env"), "TOKEN=bench\n");
}
