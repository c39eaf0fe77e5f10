import { readFileSync } from "node:fs";
import { statIfAny } from "../store/stat-if-any.ts";
import type { NamedValue } from "./redact.ts";

/** A file whose values the redactor hides, under `label`; `parse` takes its text to those values. */
export type SecretFile = { path: string; label: string; parse: (path: string, text: string) => string[] };

// Secret files are small; anything larger is no credential file worth reading on every call.
const MAX_BYTES = 256 * 1024;

/**
 * Reads the values of secret files, each again only when its (dev, ino, size, mtime, ctime) changed:
 * a call costs one stat a known file. A file that is gone, not a regular file, too large or binary holds none.
 */
export function createSecretFileValues(): (files: readonly SecretFile[]) => NamedValue[] {
  const cache = new Map<string, { stamp: string; values: string[] }>();
  return (files) => {
    const found: NamedValue[] = [];
    const seen = new Set<string>();
    for (const file of files) {
      seen.add(file.path);
      const st = statIfAny(file.path);
      if (!st?.isFile() || st.size > MAX_BYTES) continue;
      const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
      let entry = cache.get(file.path);
      if (entry?.stamp !== stamp) {
        entry = { stamp, values: read(file) };
        cache.set(file.path, entry);
      }
      for (const value of entry.values) found.push({ name: file.label, value });
    }
    for (const path of cache.keys()) if (!seen.has(path)) cache.delete(path);
    return found;
  };
}

function read(file: SecretFile): string[] {
  try {
    const text = readFileSync(file.path, "utf8");
    return text.includes("\0") ? [] : file.parse(file.path, text);
  } catch {
    return []; // unreadable to shiro: unreadable to its tools too
  }
}

