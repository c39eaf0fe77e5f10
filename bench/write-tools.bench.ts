import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { medianMs } from "./median.ts";
import { writeFile } from "../src/tools/files/write-file.ts";
import { editFile } from "../src/tools/files/edit-file.ts";
import { applyPatch } from "../src/tools/files/apply-patch.ts";
import { readFile } from "../src/tools/files/read-file.ts";
import type { ToolContext } from "../src/tools/tool.ts";

const RUNS = 200;
const FILE = "src/app/parts/big.ts";

/**
 * One call of each file tool on a 2,000-line file three folders deep (each opens every folder on the
 * way, and read_file judges where it lands again), median of 200.
 */
export async function bench(): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "shiro-bench-write-"));
  try {
    mkdirSync(join(root, "src/app/parts"), { recursive: true });
    const body = Array.from({ length: 2000 }, (_, i) => `export const v${i} = ${i};`).join("\n") + "\n";
    const ctx: ToolContext = { root, signal: new AbortController().signal, env: {} };
    // Every call undoes the one before, so each changes one line of the same file.
    const alternate = <T>(there: T, back: T) => {
      writeFileSync(join(root, FILE), body);
      let n = 0;
      return () => (n++ % 2 ? back : there);
    };
    let created = 0;
    const create = await medianMs(RUNS, () => writeFile.run({ path: `src/app/parts/new${created++}.ts`, content: body }, ctx));
    const contents = alternate(body + "// x\n", body);
    const replace = await medianMs(RUNS, () => writeFile.run({ path: FILE, content: contents() }, ctx));
    const edits = alternate({ path: FILE, old_string: "v1000 = 1000;", new_string: "v1000 = -1;" }, { path: FILE, old_string: "v1000 = -1;", new_string: "v1000 = 1000;" });
    const edit = await medianMs(RUNS, () => editFile.run(edits(), ctx));
    const patch = (from: string, to: string) => `*** Begin Patch\n*** Update File: ${FILE}\n@@\n export const v999 = 999;\n-export const v1000 = ${from};\n+export const v1000 = ${to};\n*** End Patch`;
    const patches = alternate(patch("1000", "-1"), patch("-1", "1000"));
    const patching = await medianMs(RUNS, () => applyPatch.run({ patch: patches() }, ctx));
    const reading = await medianMs(RUNS, () => readFile.run({ path: FILE }, { ...ctx, readDenied: () => false }));
    return [
      `read_file of it: median ${reading.toFixed(3)} ms`,
      `write_file creating a 2,000-line file: median ${create.toFixed(3)} ms`,
      `write_file replacing it: median ${replace.toFixed(3)} ms`,
      `edit_file of one line in it: median ${edit.toFixed(3)} ms`,
      `apply_patch of one line in it: median ${patching.toFixed(3)} ms`,
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
