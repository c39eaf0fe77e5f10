import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./run-shiro.ts";

/** A PATH of one temp folder linking just `tools` (those this machine has): a run without, say, rg. */
export function pathOf(tools: string[]): string {
  const bin = tempDir("bin");
  for (const tool of tools) {
    const real = Bun.which(tool);
    if (real) symlinkSync(real, join(bin, tool));
  }
  return bin;
}
