import { readdir, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { atomicWrite } from "../store/atomic-write.ts";
import { editDistance } from "../text/edit-distance.ts";
import { ToolError } from "./tool.ts";
import { displayPath } from "./resolve-path.ts";

/** Git's own test: a NUL byte in the first 8 KiB means binary. */
export const looksBinary = (bytes: Uint8Array): boolean => bytes.subarray(0, 8192).includes(0);

/** Reads a file the tools may edit, or undefined when it does not exist. Folders and binaries are refused. */
export async function readTextFile(root: string, abs: string): Promise<string | undefined> {
  const info = await stat(abs).catch(() => undefined);
  if (!info) return undefined;
  const shown = displayPath(root, abs);
  if (info.isDirectory()) throw new ToolError(`${shown} is a directory, not a file. Use list_dir to see what it contains.`);
  const bytes = await Bun.file(abs).bytes();
  if (looksBinary(bytes)) throw new ToolError(`${shown} is a binary file; it cannot be read or edited as text.`);
  return new TextDecoder().decode(bytes);
}

/** Writes text atomically, keeping the mode of the file it replaces, or of `modeFrom` (a moved file); else 0644. */
export async function writeTextFile(abs: string, content: string, modeFrom = abs): Promise<void> {
  const info = await stat(modeFrom).catch(() => undefined);
  await atomicWrite(abs, content, info ? info.mode & 0o7777 : 0o644);
}

/** "File not found" with up to three similar names from the same folder, when there are any. */
export async function missingFileError(root: string, abs: string): Promise<ToolError> {
  const wanted = basename(abs).toLowerCase();
  const names = await readdir(dirname(abs)).catch(() => undefined);
  const shown = displayPath(root, abs);
  if (!names) return new ToolError(`File not found: ${shown} (its folder ${displayPath(root, dirname(abs))} does not exist either).`);
  const near = names
    .map((name) => ({ name, score: similarity(wanted, name.toLowerCase()) }))
    .filter((n) => n.score >= 0.5)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((n) => displayPath(root, `${dirname(abs)}/${n.name}`));
  return new ToolError(`File not found: ${shown}.${near.length ? ` Did you mean: ${near.join(", ")}?` : ""}`);
}

/** 1 for equal strings, 0 for nothing in common (1 − edit distance / longer length). */
export function similarity(a: string, b: string): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 1 : 1 - editDistance(a, b) / longer;
}
