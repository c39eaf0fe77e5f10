import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** Every regular file under `root` (hidden ones and every depth included) whose bytes contain `value`, relative to `root`. */
export function filesContaining(root: string, value: string): string[] {
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
