import { z } from "zod";
import { join, resolve } from "node:path";
import { atomicWrite } from "./atomic-write.ts";
import { readJson } from "./read-json.ts";
import { projectKey } from "./project-key.ts";

export const HISTORY_CAP = 200;
const historySchema = z.object({ entries: z.array(z.string()) });

export type PromptHistory = {
  /** Oldest first. */
  entries: string[];
  warning?: string;
  /**
   * Records a line. Never rejects: the first time the file cannot be written it resolves to a warning,
   * and later lines stay in memory only (a history that cannot be saved must not stop the prompt).
   */
  add(line: string): Promise<string | undefined>;
  /** From now on lines stay in memory only, without a word (the home was found unwritable, and that is said once elsewhere). */
  keepInMemory(): void;
};

/** Prompt history per project folder: $SHIRO_HOME/history/<key>.json, capped, no immediate repeats. */
export async function openHistory(home: string, cwd: string): Promise<PromptHistory> {
  const path = join(home, "history", `${projectKey(resolve(cwd))}.json`);
  const read = await readJson(path, historySchema);
  const entries = read.ok ? read.value.entries.slice(-HISTORY_CAP) : [];
  const warning = !read.ok && read.reason === "corrupt" ? `prompt history skipped: ${read.message}` : undefined;
  // A corrupt file is left alone rather than overwritten with this session's few lines.
  let writable = !warning;
  return {
    entries,
    warning,
    async add(line) {
      if (line.trim() === "" || entries.at(-1) === line) return undefined;
      entries.push(line);
      if (entries.length > HISTORY_CAP) entries.splice(0, entries.length - HISTORY_CAP);
      if (!writable) return undefined;
      try {
        await atomicWrite(path, JSON.stringify({ entries }));
      } catch (err) {
        writable = false;
        return `prompt history not saved (${(err as Error).message}); this session's lines stay in memory only`;
      }
      return undefined;
    },
    keepInMemory() {
      writable = false;
    },
  };
}
