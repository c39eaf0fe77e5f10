import { unlinkSync } from "node:fs";
import { link, mkdir, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export type LockOptions = {
  /** A lock older than this (or whose process is gone) is taken over. Holders keep it for milliseconds. */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
};

/** The lock could not be taken in time; names the lock file so the person can remove it. */
export class LockTimeoutError extends Error {
  override name = "LockTimeoutError";
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder ? ` (held by pid ${holder.pid} since ${new Date(holder.at).toISOString()})` : "";
    super(`could not lock ${lockPath}${who}; if no shiro process is running, delete that file`);
  }
}

type LockHolder = { pid: number; at: number; token: string };

/**
 * Runs `fn` while holding `<path>.lock`, so processes that change the same file take turns.
 * The lock file is created complete (written beside it, then hard-linked into place, which fails
 * if it exists), so a reader never sees an empty lock.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lockPath = `${path}.lock`;
  const token = await acquire(lockPath, opts.staleMs ?? 5_000, opts.timeoutMs ?? 10_000);
  try {
    return await fn();
  } finally {
    await release(lockPath, token);
  }
}

export type HeldLock = { held: true; release(): void } | { held: false; pid?: number };

/**
 * Holds `<path>.lock` until `release` — for as long as a process keeps a session open, not a moment.
 * A holder whose process is gone (killed) is taken over; a live one means the file is in use.
 * `release` is synchronous so it also runs as the process exits.
 */
export async function holdLock(path: string): Promise<HeldLock> {
  const lockPath = `${path}.lock`;
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  const token = Bun.randomUUIDv7();
  for (let tries = 0; tries < 3; tries++) {
    if (await tryCreate(lockPath, { pid: process.pid, at: Date.now(), token })) {
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        process.off("exit", release);
        try {
          unlinkSync(lockPath);
        } catch {
          // Already gone.
        }
      };
      process.on("exit", release);
      return { held: true, release };
    }
    const holder = await readHolder(lockPath);
    if (holder === "gone") continue;
    if (holder && holder.pid !== process.pid && isAlive(holder.pid)) return { held: false, pid: holder.pid };
    await takeOver(lockPath, holder);
  }
  return { held: false };
}

async function acquire(lockPath: string, staleMs: number, timeoutMs: number): Promise<string> {
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  const token = Bun.randomUUIDv7();
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  while (true) {
    if (await tryCreate(lockPath, { pid: process.pid, at: Date.now(), token })) return token;
    const holder = await readHolder(lockPath);
    if (holder !== "gone" && (await isStale(lockPath, holder, staleMs))) {
      await takeOver(lockPath, holder);
      continue;
    }
    if (Date.now() >= deadline) throw new LockTimeoutError(lockPath, holder === "gone" ? undefined : holder);
    await Bun.sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 50);
  }
}

async function tryCreate(lockPath: string, holder: LockHolder): Promise<boolean> {
  const temp = `${lockPath}.${holder.token}.tmp`;
  try {
    // Inside the try: a full disk makes the file and refuses its bytes, and it is removed all the same.
    await writeFile(temp, JSON.stringify(holder), { mode: 0o600 });
    await link(temp, lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    await rm(temp, { force: true });
  }
}

/** The holder written in the lock, `undefined` when unreadable, "gone" when released meanwhile. */
async function readHolder(lockPath: string): Promise<LockHolder | undefined | "gone"> {
  let text: string;
  try {
    text = await readFile(lockPath, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw err;
  }
  try {
    const raw = JSON.parse(text) as Partial<LockHolder>;
    if (typeof raw.pid === "number" && typeof raw.at === "number" && typeof raw.token === "string") return raw as LockHolder;
  } catch {
    // A lock written by something else: judged by its age alone.
  }
  return undefined;
}

async function isStale(lockPath: string, holder: LockHolder | undefined, staleMs: number): Promise<boolean> {
  if (holder && holder.pid !== process.pid && !isAlive(holder.pid)) return true;
  const since = holder?.at ?? (await stat(lockPath).catch(() => undefined))?.mtimeMs;
  return since !== undefined && Date.now() - since > staleMs;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Moves the stale lock aside and checks it is the one judged stale; if another process replaced it
 * in between, it is put back (link fails if yet another lock appeared, which then wins).
 */
async function takeOver(lockPath: string, stale: LockHolder | undefined): Promise<void> {
  const aside = `${lockPath}.${Bun.randomUUIDv7()}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  const moved = await readHolder(aside);
  const same = moved === stale || (typeof moved === "object" && moved.token === stale?.token);
  if (!same) await link(aside, lockPath).catch(() => undefined);
  await rm(aside, { force: true });
}

async function release(lockPath: string, token: string): Promise<void> {
  const holder = await readHolder(lockPath);
  // Taken over after we stalled past staleMs: the lock is someone else's now.
  if (typeof holder === "object" && holder.token !== token) return;
  await unlink(lockPath).catch(() => undefined);
}
