import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * Every regular file under `root` (hidden ones and every depth included) whose bytes contain `value`,
 * relative to `root`. ripgrep where it is installed (a whole test run's folders hold hundreds of
 * thousands of files, which a walk reading each one takes minutes over on a busy machine), else a walk.
 */
export function filesContaining(root: string, value: string): string[] {
  const rg = Bun.which("rg");
  if (rg) {
    // -uuu: hidden, ignored and binary files too; -F: the value as it is; exit 1 is "none found".
    const r = Bun.spawnSync([rg, "-uuu", "--files-with-matches", "--no-messages", "-F", "--", value, root], { stdout: "pipe", stderr: "ignore" });
    if (r.exitCode === 0 || r.exitCode === 1) return r.stdout.toString().split("\n").filter(Boolean).map((path) => relative(root, path)).sort();
  }
  return walked(root, value);
}

function walked(root: string, value: string): string[] {
  const needle = Buffer.from(value);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && readFileSync(path).includes(needle)) found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}
