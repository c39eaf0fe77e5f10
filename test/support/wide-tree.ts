import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type WideTreeOptions = {
  /** Hard-link each folder's files to its first one: ~3× faster to make, but every file has the same text. */
  linked?: boolean;
};

/**
 * Fills `root` with `count` small text files, 100 to a folder (`d0000/f00.ts` …), then `zzz/needle.txt`,
 * the last file in any sorted walk, holding the only "needle" line. Returns the number of files made.
 */
export function wideTree(root: string, count: number, opts: WideTreeOptions = {}): number {
  for (let made = 0, d = 0; made < count; d++) {
    const dir = join(root, `d${String(d).padStart(4, "0")}`);
    mkdirSync(dir, { recursive: true });
    const first = join(dir, "f00.ts");
    for (let f = 0; f < 100 && made < count; f++, made++) {
      const path = join(dir, `f${String(f).padStart(2, "0")}.ts`);
      if (opts.linked && f > 0) linkSync(first, path);
      else writeFileSync(path, Array.from({ length: 10 }, (_, i) => `export const value${i} = "line ${i} of ${d}/${f}";`).join("\n") + "\n");
    }
  }
  mkdirSync(join(root, "zzz"), { recursive: true });
  writeFileSync(join(root, "zzz/needle.txt"), "hay\nthe needle is here\nhay\n");
  return count + 1;
}
