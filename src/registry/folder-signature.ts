import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Names, sizes and modification times of a folder's files (with `recursive`, of its subfolders' too);
 * "" when it does not exist. Cheap enough to take before every call, so what is installed mid-session
 * is seen without reading every file again.
 */
export async function folderSignature(dir: string, recursive = false): Promise<string> {
  let names: string[];
  try {
    names = (await readdir(dir, { recursive })).sort();
  } catch {
    return "";
  }
  const entries = await Promise.all(
    names.map((name) =>
      stat(join(dir, name)).then(
        (s) => `${name}\t${s.size}\t${s.mtimeMs}`,
        () => `${name}\tgone`,
      ),
    ),
  );
  return entries.join("\n");
}
