import { errno, libc, ptr, sys } from "./gate-libc.ts";

/**
 * The file calls the gate makes for a sandboxed process, on paths as the kernel gives them: bytes,
 * held here as latin1 strings (one character a byte, so nothing is lost to decoding). Every call
 * returns a negative errno on failure rather than throwing: the answer goes back to the process.
 */
export const AT_FDCWD = -100;
export const AT = { SYMLINK_NOFOLLOW: 0x100, REMOVEDIR: 0x200, SYMLINK_FOLLOW: 0x400, EMPTY_PATH: 0x1000 } as const;
export const RESOLVE_NO_MAGICLINKS = 0x02;
export const E = { EPERM: 1, ENOENT: 2, ENXIO: 6, EBADF: 9, EACCES: 13, EFAULT: 14, EBUSY: 16, EEXIST: 17, ENOTDIR: 20, EINVAL: 22, EROFS: 30, ENAMETOOLONG: 36, ELOOP: 40 } as const;
export const S = { IFMT: 0o170000, IFDIR: 0o040000, IFLNK: 0o120000, IFIFO: 0o010000, IFREG: 0o100000 } as const;
const O_PATH_DIR = 0o10000000 | 0o200000 | 0o2000000; // O_PATH | O_DIRECTORY | O_CLOEXEC

/** A C string of a latin1 path (the bytes as they came). */
export const pathBytes = (path: string): Buffer => Buffer.from(`${path}\0`, "latin1");

/** Device and inode as numbers (exact below 2^53; beyond, two inodes could only look alike, never differ). */
export type Stat = { dev: number; ino: number; mode: number };
const statBuf = new BigUint64Array(18);
const statView = new DataView(statBuf.buffer);
const MODE_AT = process.arch === "arm64" ? 16 : 24;
const u64 = (at: number) => statView.getUint32(at, true) + statView.getUint32(at + 4, true) * 2 ** 32;
const readStat = (): Stat => ({ dev: u64(0), ino: u64(8), mode: statView.getUint32(MODE_AT, true) });

export function statFd(fd: number): Stat | number {
  return sys("fstat", fd, ptr(statBuf)) < 0 ? -errno() : readStat();
}

/** What `name` in `dir` is, its final link followed or not. */
export function statAt(dir: number, name: string, follow: boolean): Stat | number {
  const bytes = pathBytes(name);
  return sys("newfstatat", dir, ptr(bytes), ptr(statBuf), follow ? 0 : AT.SYMLINK_NOFOLLOW) < 0 ? -errno() : readStat();
}

const linkBuf = new Uint8Array(4096);
/** A link's text (latin1), or a negative errno. */
export function readlinkAt(dir: number, name: string): string | number {
  const bytes = pathBytes(name);
  const n = libc().readlinkat(dir, ptr(bytes), ptr(linkBuf), linkBuf.length) as number;
  return n < 0 ? -errno() : Buffer.from(linkBuf.buffer, 0, n).toString("latin1");
}

/** Where an open file really is, as the kernel names it (`/proc/self/fd/N`'s link). */
export const realOf = (fd: number): string | number => readlinkAt(AT_FDCWD, `/proc/self/fd/${fd}`);

/** openat, with nothing in the way: for paths the gate itself built (`/proc/<pid>/cwd`). */
export function openPlain(dir: number, path: string, flags: number, mode = 0): number {
  const bytes = pathBytes(path);
  const fd = libc().openat(dir, ptr(bytes), flags, mode) as number;
  return fd < 0 ? -errno() : fd;
}

const how = new BigUint64Array(3);
/** openat2 with `resolve` (RESOLVE_*): for paths a process gave, which must not cross /proc's magic links. */
export function openResolved(dir: number, path: string, flags: number, mode: number, resolve: number): number {
  const bytes = pathBytes(path);
  how[0] = BigInt(flags >>> 0);
  how[1] = BigInt(mode);
  how[2] = BigInt(resolve);
  const fd = sys("openat2", dir, ptr(bytes), ptr(how), 24);
  return fd < 0 ? -errno() : fd;
}

/** A folder as an O_PATH handle (the base a relative path is resolved from). */
export const openDir = (dir: number, path: string, resolve = RESOLVE_NO_MAGICLINKS): number => openResolved(dir, path, O_PATH_DIR, 0, resolve);

export const close = (fd: number): void => void (fd >= 0 && libc().close(fd));

/** A syscall's result as the gate answers it: its value, or a negative errno. */
export const result = (r: number): number => (r < 0 ? -errno() : r);
