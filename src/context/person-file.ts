import { statSync } from "node:fs";
import { relative } from "node:path";
import { diskEnv, resolvePath } from "../guard/resolve-path.ts";
import { isSecret } from "../guard/secret-path.ts";

/** A file the person named, read: its bytes, or why it was not (one line, after its name). */
export type PersonFile = { shown: string; bytes: Uint8Array } | { shown: string; refused: string };

/**
 * A file the person named (`@path`, `-i`), read as the person: their own files are never redacted,
 * but a secret (as written or where its symlinks lead) is refused, and so is what `readRefused` (a
 * saved command's `@path`, which someone else may have written) says `read_file` would not be let read.
 * `path` is absolute; `shown` is it relative to `root`.
 */
export async function readPersonFile(path: string, root: string, readRefused?: (path: string) => Promise<string | undefined>): Promise<PersonFile> {
  const shown = relative(root, path);
  if (isSecret(resolvePath(path, diskEnv(root)))) return { shown, refused: "a secret file is never attached" };
  const why = await readRefused?.(path);
  if (why !== undefined) return { shown, refused: why };
  try {
    return { shown, bytes: await Bun.file(path).bytes() };
  } catch (e) {
    return { shown, refused: `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

/** A path that cannot name a file (a NUL in it, a name too long, a file as a folder) is not one. */
export function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}
