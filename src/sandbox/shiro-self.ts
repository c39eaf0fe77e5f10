import { join } from "node:path";

/**
 * shiro itself as a command line, for the sandbox's helpers it re-executes (the Landlock launcher, the
 * gate's filter): the compiled binary, or `bun src/main.ts` when run from the sources.
 */
export const shiroSelf = (): string[] => (Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, join(import.meta.dir, "../main.ts")]);

/** What a sandboxed launcher must be able to read and run to start shiro again: the binary, or bun and the sources. */
export const shiroFiles = (): { file: string; dir?: boolean }[] =>
  Bun.main.startsWith("/$bunfs/") ? [{ file: process.execPath }] : [{ file: process.execPath }, { file: join(import.meta.dir, ".."), dir: true }];
