import { z } from "zod";

/**
 * How a checkpoint holds one path: a file's content by hash, a symlink's target, or a file too large to keep.
 * The hash is not pattern-checked (bulk reads stay cheap): a blob is only ever taken if its bytes match it.
 * `git`: the content is a blob of the repository's, not copied into the store; this is the sealed pointer
 * to it (blob-store.ts). It is no part of what the file holds: two files of the same hash are the same.
 */
export const keptSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("file"), hash: z.string(), size: z.number().int().nonnegative(), mode: z.number().int().nonnegative(), git: z.string().optional() }),
  z.object({ kind: z.literal("link"), target: z.string() }),
  z.object({ kind: z.literal("big"), size: z.number().int().nonnegative(), mode: z.number().int().nonnegative() }),
]);
export type Kept = z.infer<typeof keptSchema>;

/** Whether two states of a path are the same; undefined is "no such file". A file too large to keep equals nothing, not even itself. */
export function sameKept(a: Kept | undefined, b: Kept | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === "file" && b.kind === "file") return a.hash === b.hash && a.mode === b.mode;
  if (a.kind === "link" && b.kind === "link") return a.target === b.target;
  return false;
}

/** The per-file cap: a larger file is reported, not kept (undo cannot bring it back). */
export const MAX_KEPT_BYTES = 16 * 1024 * 1024;
