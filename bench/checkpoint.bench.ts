import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, medianMs } from "./median.ts";
import { createCheckpointStore } from "../src/checkpoint/checkpoint-store.ts";
import { createCheckpoints } from "../src/checkpoint/checkpoints.ts";
import { formatBytes } from "../src/text/format-bytes.ts";

const FILES = 8000;
const TURNS = 100;

/**
 * Checkpoints on an 8,000-file project (80 folders, source-like text of 0.2–6 KB, 25 MB in all): the
 * first look of a project (every file hashed and stored once), the first look of a later run (the
 * saved stat cache: a stat per file), a turn's checkpoint when nothing changed (inotify; and by
 * walking, where inotify is missing), and a 100-turn job changing 3 files and adding 1 a turn —
 * its cost per turn and what the store then holds.
 */
export async function bench(): Promise<string[]> {
  const base = mkdtempSync(join(tmpdir(), "shiro-bench-checkpoint-"));
  try {
    const root = join(base, "project");
    let size = 0;
    for (let i = 0; i < FILES; i++) {
      const dir = join(root, `src/m${i % 80}`);
      if (i < 80) mkdirSync(dir, { recursive: true });
      const text = sourceLike(i);
      size += text.length;
      writeFileSync(join(dir, `f${i}.ts`), text);
    }
    const store = createCheckpointStore(join(base, "checkpoints"));
    const warn = () => {};
    const timeAsync = async (fn: () => Promise<void>) => {
      const start = performance.now();
      await fn();
      return performance.now() - start;
    };
    const time = (fn: () => void) => {
      const start = performance.now();
      fn();
      return performance.now() - start;
    };
    const first = createCheckpoints({ root, store, warn });
    const firstLook = await timeAsync(async () => {
      first.beginTurn("bench", 1);
      await first.ready();
    });
    first.endTurn();
    first.close();

    const run = createCheckpoints({ root, store, warn });
    const laterLook = await timeAsync(async () => {
      run.beginTurn("bench", 1);
      await run.ready();
    });
    run.endTurn();
    let turn = 1;
    // A turn with one command that changed nothing: the look as it begins, and one after the command.
    const idle = await medianMs(200, async () => {
      run.beginTurn("bench", ++turn);
      await run.ready();
      run.afterCall();
      run.endTurn();
    });
    run.close();
    const walking = createCheckpoints({ root, store, warn, watch: false });
    walking.beginTurn("bench", 1);
    await walking.ready();
    const walked = await medianMs(20, async () => {
      walking.beginTurn("bench", ++turn);
      await walking.ready();
      walking.afterCall();
      walking.endTurn();
    });
    walking.close();

    const job = createCheckpoints({ root, store, warn });
    job.beginTurn("job", 1);
    await job.ready();
    job.endTurn();
    const before = storeBytes(store.dir);
    const perTurn: number[] = [];
    for (let t = 1; t <= TURNS; t++) {
      perTurn.push(
        time(() => {
          job.beginTurn("job", t);
          void job.ready();
          for (let k = 0; k < 3; k++) appendFileSync(join(root, `src/m${(t * 7 + k) % 80}/f${(t * 31 + k * 101) % FILES - ((t * 31 + k * 101) % FILES) % 80 + ((t * 7 + k) % 80)}.ts`), `// turn ${t} edit ${k}\n`);
          writeFileSync(join(root, `src/m${t % 80}/new${t}.ts`), sourceLike(t));
          job.afterCall();
          job.endTurn();
        }),
      );
    }
    job.close();
    const after = storeBytes(store.dir);
    return [
      `project: ${FILES} files, ${formatBytes(size)}`,
      `first look of a new project (hash and store every file): ${firstLook.toFixed(0)} ms`,
      `first look of a later run (stat cache): ${laterLook.toFixed(1)} ms`,
      `a turn's checkpoints (its start, one command), nothing changed (inotify): median ${idle.toFixed(3)} ms`,
      `the same without inotify (a walk for each): median ${walked.toFixed(1)} ms`,
      `100-turn job, 3 files changed + 1 added a turn: median ${median(perTurn).toFixed(2)} ms a turn, first 10 ${median(perTurn.slice(0, 10)).toFixed(2)} ms, last 10 ${median(perTurn.slice(-10)).toFixed(2)} ms`,
      `store: ${formatBytes(before)} after the first look (${((before / size) * 100).toFixed(0)}% of the project), ${formatBytes(after)} after 100 turns (+${formatBytes(after - before)})`,
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Text like source: varied identifiers and numbers, so compression does what it would on real code. */
function sourceLike(i: number): string {
  const lines = 5 + ((i * 2654435761) % 150);
  let out = "";
  for (let l = 0; l < lines; l++) out += `export function fn${i}_${l}(a${l}: number, b: string) { return a${l} * ${(i * 31 + l * 17) % 997} + b.length; }\n`;
  return out;
}

function storeBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const s = statSync(join(dir, name));
    if (s.isFile()) total += s.size;
  }
  return total;
}
