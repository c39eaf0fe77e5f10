import { statSync } from "node:fs";
import { atomicWrite } from "../store/atomic-write.ts";
import { UsageError } from "../exit/usage-error.ts";

/** `-o` naming a folder is refused at the start, before the run spends anything. */
export function checkOutputPath(path: string): void {
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    // Not there yet: it is made with the answer.
  }
  if (isFolder) throw new UsageError(`--output ${path} is a folder; name the file the answer goes to`);
}

/**
 * `-o <file>`: the final answer as stdout shows it without --json, written whole or not at all (a
 * reader, or a later CI step, never sees half of it). A run that did not finish writes nothing.
 */
export async function writeAnswer(path: string, answer: string, warn: (line: string) => void): Promise<boolean> {
  try {
    await atomicWrite(path, answer.endsWith("\n") ? answer : answer + "\n", 0o644);
    return true;
  } catch (err) {
    warn(`could not write the answer to --output ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return false;
  }
}
