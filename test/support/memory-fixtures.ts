/** Project memory as a user finds it on disk, for end-to-end tests: the file path and hand-written entries. */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** `$SHIRO_HOME/memory/<first 16 hex of sha256(absolute project path)>.json`, as docs/memory.md says. */
export const memoryFileOf = (home: string, project: string) =>
  join(home, "memory", `${createHash("sha256").update(realpathSync(project)).digest("hex").slice(0, 16)}.json`);

export type Note = { id: string; kind: string; text: string; createdAt: string; hits: number; lastHitAt?: string };

export const note = (id: string, kind: string, text: string, hits = 0): Note => ({
  id,
  kind,
  text,
  createdAt: "2026-01-02T03:04:05.000Z",
  hits,
  ...(hits ? { lastHitAt: "2026-01-03T03:04:05.000Z" } : {}),
});

/** Writes a memory file by hand (the docs say it is plain JSON) and returns its exact bytes. */
export function writeNotes(home: string, project: string, entries: Note[]): string {
  const path = memoryFileOf(home, project);
  mkdirSync(dirname(path), { recursive: true });
  const text = `${JSON.stringify({ version: 1, project: realpathSync(project), entries }, null, 2)}\n`;
  writeFileSync(path, text);
  return text;
}

export const readNotes = (home: string, project: string): Note[] => JSON.parse(readFileSync(memoryFileOf(home, project), "utf8")).entries;

export { savedSessions as sessionFiles } from "./saved-sessions.ts";
