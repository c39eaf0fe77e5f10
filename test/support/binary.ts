import { statSync } from "node:fs";
import { join } from "node:path";

export const REPO = join(import.meta.dir, "../..");
export const BINARY = join(REPO, "dist/shiro");

/** Builds dist/shiro when any source is newer than it, so `bun test` always tests the current code. */
export function ensureBinary(): void {
  const built = mtime(BINARY);
  const sources = [...new Bun.Glob("src/**/*.ts").scanSync({ cwd: REPO }), "build.ts", "package.json"];
  if (built !== 0 && sources.every((f) => mtime(join(REPO, f)) <= built)) return;
  const result = Bun.spawnSync(["bun", "build.ts"], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`building dist/shiro failed:\n${result.stderr.toString()}`);
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
