import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianMs } from "./median.ts";
import { walkFiles } from "../src/files/walk-files.ts";
import { grep } from "../src/tools/search/grep.ts";
import { glob } from "../src/tools/search/glob.ts";
import { parsePatch } from "../src/tools/files/parse-patch.ts";
import { applyChunks } from "../src/tools/files/apply-chunks.ts";
import { findNearMatch } from "../src/tools/files/near-match.ts";
import { createNestedLoader } from "../src/context/nested-loader.ts";
import type { InstructionFile } from "../src/session/reduce-session.ts";

/** Walk/grep over a 2,000-file tree (with an ignored 2,000-file folder), and patching a 20,000-line file. */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-tools-"));
  try {
    writeFileSync(join(root, ".gitignore"), "node_modules/\n*.log\n");
    for (let d = 0; d < 40; d++) {
      mkdirSync(join(root, `src/m${d}`), { recursive: true });
      mkdirSync(join(root, `node_modules/p${d}`), { recursive: true });
      for (let f = 0; f < 50; f++) {
        const body = Array.from({ length: 40 }, (_, i) => `export const v${i} = "${d}-${f}-${i}";`).join("\n");
        writeFileSync(join(root, `src/m${d}/f${f}.ts`), body);
        writeFileSync(join(root, `node_modules/p${d}/f${f}.js`), body);
      }
    }
    const ctx = { root, signal: new AbortController().signal, env: {} };
    const walk = await medianMs(5, () => walkFiles(root, "."));
    const search = await medianMs(5, () => grep.run({ pattern: "v39 = \"7-" }, ctx));
    // A pattern's fixed leading folders are all it walks: src/m7 alone, not the tree beside it.
    const narrow = await medianMs(5, () => glob.run({ pattern: "src/m7/**/*.ts" }, ctx));
    const whole = await medianMs(5, () => glob.run({ pattern: "**/m7/**/*.ts" }, ctx));

    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const hunks = Array.from({ length: 50 }, (_, k) => `@@\n line ${k * 400}\n-line ${k * 400 + 1}\n+changed ${k}\n line ${k * 400 + 2}`).join("\n");
    const patch = `*** Begin Patch\n*** Update File: big.txt\n${hunks}\n*** End Patch`;
    const patching = await medianMs(5, () => {
      const [op] = parsePatch(patch);
      if (op?.type === "update") applyChunks(big, op.chunks);
    });
    const near = await medianMs(5, () => findNearMatch(big, "lien 19999 missing"));
    const nested = nestedLoaderFigures(root);
    return [
      `walk 2,000 files (2,000 more ignored): median ${walk.toFixed(1)} ms`,
      `grep over them: median ${search.toFixed(1)} ms`,
      `glob src/m7/**/*.ts (walks its 50 files): median ${narrow.toFixed(2)} ms; **/m7/**/*.ts (walks the tree): median ${whole.toFixed(1)} ms`,
      `parse + apply 50 hunks to a 20,000-line file: median ${patching.toFixed(1)} ms`,
      `edit_file near-match scan of 20,000 lines: median ${near.toFixed(1)} ms`,
      ...nested,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * What each file tool call pays for the subfolders' instructions (issue 35): the first touch of a
 * path looks at the folders on its way that are new (a few `stat`s, the file read where there is
 * one); a path already seen is one Set lookup, however many were seen before it.
 */
function nestedLoaderFigures(root: string): string[] {
  writeFileSync(join(root, "src/m7/AGENTS.md"), "m7 rules\n");
  const loaded: InstructionFile[] = [];
  const touched = createNestedLoader({ root, loaded: () => loaded, record: (f) => loaded.push(f), warn: () => {} });
  const paths = Array.from({ length: 2_000 }, (_, i) => `src/m${i % 40}/f${Math.floor(i / 40)}.ts`);
  const perCall = (list: readonly string[]) => {
    const start = performance.now();
    for (const path of list) touched([path]);
    return ((performance.now() - start) * 1000) / list.length;
  };
  const first = perCall(paths);
  const seen = () => Math.min(...Array.from({ length: 5 }, () => perCall(paths)));
  const few = seen();
  // 100,000 more paths seen (folders that do not exist: a failed stat each, once).
  perCall(Array.from({ length: 100_000 }, (_, i) => `gen/d${i % 500}/f${i}.ts`));
  const many = seen();
  return [
    `subfolder instructions: first touch of 2,000 paths in 40 folders (one AGENTS.md): ${first.toFixed(1)} µs a path; a path seen before: ${few.toFixed(2)} µs a call with 2,040 seen, ${many.toFixed(2)} µs with 102,540 seen (${loaded.length} file joined)`,
  ];
}
