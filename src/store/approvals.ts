import { createHash } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import { atomicWrite } from "./atomic-write.ts";
import { withFileLock } from "./file-lock.ts";
import { readJson } from "./read-json.ts";

/**
 * What a person agreed to run that a project brought (an `.mcp.json` server, a project hook, a saved
 * command): each kept by the hash of its exact definition, so a change is asked again. One file,
 * `$SHIRO_HOME/approvals.json`, for every kind.
 */
export type ApprovalKind = "mcp-server" | "hook" | "command" | "agent";

export type Approvals = {
  /** Whether `hash` of what `subject` names (a server, a hook set, a command) was approved in `root`. */
  has(kind: ApprovalKind, root: string, subject: string, hash: string): boolean;
  /** Remembers an approval and saves it; a failed save is warned once and holds for this run. Never rejects. */
  add(kind: ApprovalKind, root: string, subject: string, hash: string): Promise<void>;
};

const entrySchema = z.object({ kind: z.string(), root: z.string(), subject: z.string(), hash: z.string(), at: z.string() });
const fileSchema = z.object({ version: z.literal(1), approvals: z.array(entrySchema) });
type Entry = z.infer<typeof entrySchema>;

/**
 * The approvals a run reads at most once, on first need: MCP servers, hooks and saved commands share
 * it, and a run whose project brings none of them never reads the file.
 */
export function lazyApprovals(opts: { home: string; save: boolean; warn: (line: string) => void }): () => Promise<Approvals> {
  let opened: Promise<Approvals> | undefined;
  return () => (opened ??= openApprovals(opts));
}

export const approvalsPath = (home: string) => join(home, "approvals.json");

/** A definition's hash: its JSON with keys sorted, so reformatting the file is not a change. */
export function definitionHash(definition: unknown): string {
  return createHash("sha256").update(stableJson(definition)).digest("hex").slice(0, 32);
}

const stableJson = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(stableJson).join(",")}]`
    : value !== null && typeof value === "object"
      ? `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
          .join(",")}}`
      : JSON.stringify(value) ?? "null";

const keyOf = (e: Pick<Entry, "kind" | "root" | "subject" | "hash">) => `${e.kind}\0${e.root}\0${e.subject}\0${e.hash}`;

/**
 * Reads `$SHIRO_HOME/approvals.json` once. A corrupt file is skipped with a warning and left as it
 * is (nothing counts as approved); `save: false` (`--ephemeral`, a read-only home) approves for this run.
 */
export async function openApprovals(opts: { home: string; save: boolean; warn: (line: string) => void }): Promise<Approvals> {
  const path = approvalsPath(opts.home);
  const known = new Set<string>();
  const read = await readJson(path, fileSchema);
  let writable = opts.save;
  if (read.ok) for (const e of read.value.approvals) known.add(keyOf(e));
  if (!read.ok && read.reason === "corrupt") {
    opts.warn(`approvals skipped: ${read.message}; delete it to start over (every project definition is asked again)`);
    writable = false;
  }
  return {
    has: (kind, root, subject, hash) => known.has(keyOf({ kind, root, subject, hash })),
    async add(kind, root, subject, hash) {
      known.add(keyOf({ kind, root, subject, hash }));
      if (!writable) return;
      try {
        await withFileLock(path, async () => {
          // Re-read under the lock: another shiro may have approved something meanwhile.
          const current = await readJson(path, fileSchema);
          if (!current.ok && current.reason === "corrupt") throw new Error(current.message);
          // One approval per subject: the definition approved before this one no longer counts.
          const others = (current.ok ? current.value.approvals : []).filter((e) => !(e.kind === kind && e.root === root && e.subject === subject));
          const entry: Entry = { kind, root, subject, hash, at: new Date().toISOString() };
          await atomicWrite(path, `${JSON.stringify({ version: 1, approvals: [...others, entry] }, null, 2)}\n`);
        });
      } catch (err) {
        writable = false;
        opts.warn(`the approval was not saved (${(err as Error).message}); it holds for this run only`);
      }
    },
  };
}
