import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Every entry under `dir`: content, mode, size and times (what any write, even a lock made and removed, would change). */
export function sweep(dir: string, at = "."): Record<string, string> {
  const s = lstatSync(join(dir, at));
  const out: Record<string, string> = { [at]: `${s.mode} ${s.size} ${s.mtimeMs} ${s.ctimeMs}${s.isFile() ? ` ${readFileSync(join(dir, at), "base64")}` : ""}` };
  if (s.isDirectory()) for (const name of readdirSync(join(dir, at))) Object.assign(out, sweep(dir, join(at, name)));
  return out;
}
