import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Writes a file so that readers see either the old or the new content, never a torn one: write a
 * uniquely named temp file beside it, then rename over. Two processes writing at once both stay whole.
 * Missing folders are made private (0700) for a private file, as every `$SHIRO_HOME` folder is.
 */
export async function atomicWrite(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: mode & 0o077 ? 0o777 : 0o700 });
  const temp = `${path}.${process.pid}.${Bun.randomUUIDv7().slice(-12)}.tmp`;
  try {
    await writeFile(temp, data, { mode });
    await chmod(temp, mode);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** `atomicWrite` for synchronous callers (the checkpoints, which run between tool calls). */
export function atomicWriteSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true, mode: mode & 0o077 ? 0o777 : 0o700 });
  const temp = `${path}.${process.pid}.${Bun.randomUUIDv7().slice(-12)}.tmp`;
  try {
    writeFileSync(temp, data, { mode });
    chmodSync(temp, mode);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true }); // a full disk leaves nothing half-written behind
    throw err;
  }
}
