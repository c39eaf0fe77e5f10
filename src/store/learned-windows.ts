import { z } from "zod";
import { join } from "node:path";
import { atomicWrite } from "./atomic-write.ts";
import { withFileLock } from "./file-lock.ts";
import { readJson } from "./read-json.ts";

const entrySchema = z.object({ endpoint: z.string(), model: z.string(), tokens: z.number().int().positive(), learnedAt: z.string() });
const fileSchema = z.object({ version: z.literal(1), windows: z.array(entrySchema) });
type Entry = z.infer<typeof entrySchema>;

/** The context windows overflows taught, per model and endpoint: the same name can mean a smaller model behind a proxy. */
export type LearnedWindows = {
  /** What an overflow taught about `model` at this endpoint, if one did. */
  get(model: string): number | undefined;
  /** Remembers a window for `model` (a larger one never replaces a smaller) and saves it. Never rejects. */
  learn(model: string, tokens: number): Promise<void>;
};

export const learnedWindowsPath = (home: string) => join(home, "context-windows.json");

/**
 * `$SHIRO_HOME/context-windows.json`, read once for this endpoint. A corrupt file is skipped with a
 * warning and left as it is; `save: false` (`--ephemeral`) learns for this run only.
 */
export async function openLearnedWindows(opts: { home: string; endpoint: string; save: boolean; warn: (line: string) => void }): Promise<LearnedWindows> {
  const path = learnedWindowsPath(opts.home);
  const known = new Map<string, number>();
  const read = await readJson(path, fileSchema);
  let writable = opts.save;
  if (read.ok) for (const e of read.value.windows) if (e.endpoint === opts.endpoint) known.set(e.model, e.tokens);
  if (!read.ok && read.reason === "corrupt") {
    opts.warn(`learned context windows skipped: ${read.message}; delete it to start over`);
    writable = false;
  }
  return {
    get: (model) => known.get(model),
    async learn(model, tokens) {
      const smallest = Math.min(tokens, known.get(model) ?? Infinity);
      known.set(model, smallest);
      if (!writable) return;
      try {
        await withFileLock(path, async () => {
          // Re-read under the lock: another shiro may have learned another model meanwhile.
          const current = await readJson(path, fileSchema);
          if (!current.ok && current.reason === "corrupt") throw new Error(current.message);
          const others = (current.ok ? current.value.windows : []).filter((e) => e.endpoint !== opts.endpoint || e.model !== model);
          const mine = current.ok ? current.value.windows.find((e) => e.endpoint === opts.endpoint && e.model === model) : undefined;
          const entry: Entry = { endpoint: opts.endpoint, model, tokens: Math.min(smallest, mine?.tokens ?? Infinity), learnedAt: new Date().toISOString() };
          await atomicWrite(path, `${JSON.stringify({ version: 1, windows: [...others, entry] }, null, 2)}\n`);
        });
      } catch (err) {
        writable = false;
        opts.warn(`the context window learned for ${model} was not saved (${(err as Error).message}); it holds for this run only`);
      }
    },
  };
}
