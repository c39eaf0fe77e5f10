import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { openSlot, type FileSlot } from "../tools/files/file-slot.ts";
import { atomicWriteSync } from "../store/atomic-write.ts";
import type { BlobStore } from "./blob-store.ts";
import { keptSchema } from "./kept.ts";

/**
 * An undo under way, written before its first file changes: if shiro is killed part way, the next
 * undo (or start in that project) finishes it from here, so the files end as restored, never half.
 */
export const journalSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(/^[0-9a-f]{12}$/),
  root: z.string(),
  session: z.string(),
  turn: z.number().int().positive(),
  writes: z.array(z.object({ path: z.string(), to: keptSchema.nullable() })),
  at: z.string(),
});
export type UndoJournal = z.infer<typeof journalSchema>;

const tempName = (j: UndoJournal) => `.shiro-undo-${j.id}.tmp`;
const journalPath = (dir: string, j: Pick<UndoJournal, "id">) => join(dir, `${j.id}.json`);

export function writeJournal(dir: string, j: UndoJournal) {
  atomicWriteSync(journalPath(dir, j), JSON.stringify(j));
}

export const endJournal = (dir: string, j: UndoJournal) => rmSync(journalPath(dir, j), { force: true });

/** Undos a killed shiro left unfinished (unreadable journals are skipped with a warning). */
export function unfinishedJournals(dir: string, warn: (line: string) => void): UndoJournal[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  const out: UndoJournal[] = [];
  for (const name of names) {
    try {
      const parsed = journalSchema.safeParse(JSON.parse(readFileSync(join(dir, name), "utf8")));
      if (parsed.success) out.push(parsed.data);
      else warn(`skipping the undo journal ${join(dir, name)}: it does not fit`);
    } catch (err) {
      warn(`skipping the undo journal ${join(dir, name)}: ${(err as Error).message}`);
    }
  }
  return out;
}

/** The blobs a journal's writes need, each read and checked against its hash (those git holds, read with one git call); the first missing one is named. */
export function loadBlobs(writes: UndoJournal["writes"], blobs: BlobStore): { bytes: Map<string, Uint8Array> } | { missing: string } {
  const bytes = blobs.getAll(writes.flatMap((w) => (w.to?.kind === "file" ? [w.to] : [])));
  const missing = writes.find((w) => w.to?.kind === "file" && !bytes.has(w.to.hash));
  return missing ? { missing: missing.path } : { bytes };
}

/**
 * Makes each path what the journal says, through the file tools' race-safe slots (a folder swapped
 * for a link outside the project is refused). Removals go first, deepest first, with the folders they
 * leave empty — a file may come back where the turn made a folder. Idempotent: finishing a journal
 * twice changes nothing more.
 */
export async function applyJournal(j: UndoJournal, bytes: Map<string, Uint8Array>): Promise<void> {
  const temp = tempName(j);
  const removals = j.writes.filter((w) => w.to === null).sort((a, b) => depth(b.path) - depth(a.path));
  for (const { path } of removals) await inSlot(j.root, path, (slot) => slot.remove());
  removeEmptyFolders(j.root, removals.map((w) => w.path));
  for (const { path, to } of j.writes) {
    if (to?.kind === "file") await inSlot(j.root, path, (slot) => slot.stage(bytes.get(to.hash)!, to.mode, temp).commit());
    else if (to?.kind === "link") await inSlot(j.root, path, (slot) => placeLink(slot.path, to.target, temp));
  }
}

const depth = (path: string) => path.split("/").length;

async function inSlot(root: string, path: string, act: (slot: FileSlot) => void) {
  // The name itself: a link the turn left there is replaced or removed, never followed.
  const slot = await openSlot(root, join(root, path), undefined, "write", { ownLink: true });
  try {
    act(slot);
  } finally {
    slot.close();
  }
}

/** The folders above removed files that are empty now, up to the project (a folder still holding anything stays). */
function removeEmptyFolders(root: string, removed: readonly string[]) {
  const folders = new Set(removed.flatMap((path) => path.split("/").slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join("/"))));
  for (const folder of [...folders].sort((a, b) => depth(b) - depth(a))) {
    try {
      rmdirSync(join(root, folder));
    } catch {
      // Not empty, or not a folder: it stays.
    }
  }
}

/** Removes what a write killed between staging and renaming left under the journal's temp name. */
export function clearTemps(j: UndoJournal) {
  for (const dir of new Set(j.writes.map((w) => dirname(join(j.root, w.path))))) {
    try {
      unlinkSync(join(dir, tempName(j)));
    } catch {
      // Nothing left there.
    }
  }
}

function placeLink(path: string, target: string, temp: string) {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true });
  const staged = join(folder, temp);
  rmSync(staged, { force: true });
  symlinkSync(target, staged);
  renameSync(staged, path);
}

