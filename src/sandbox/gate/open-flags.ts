/**
 * open(2)'s flags where the two architectures differ (aarch64 moved O_DIRECTORY, O_NOFOLLOW, O_DIRECT
 * and O_LARGEFILE), and the set openat2 takes: it refuses any other bit, which open() ignores.
 */
const COMMON = { WRONLY: 0o1, RDWR: 0o2, CREAT: 0o100, EXCL: 0o200, NOCTTY: 0o400, TRUNC: 0o1000, APPEND: 0o2000, NONBLOCK: 0o4000, DSYNC: 0o10000, ASYNC: 0o20000, NOATIME: 0o1000000, CLOEXEC: 0o2000000, SYNC: 0o4000000, PATH: 0o10000000, TMPFILE_BIT: 0o20000000 } as const;
const BY_ARCH = {
  x64: { DIRECT: 0o40000, LARGEFILE: 0o100000, DIRECTORY: 0o200000, NOFOLLOW: 0o400000 },
  arm64: { DIRECTORY: 0o40000, NOFOLLOW: 0o100000, DIRECT: 0o200000, LARGEFILE: 0o400000 },
} as const;

export type OpenFlags = typeof COMMON & { DIRECT: number; LARGEFILE: number; DIRECTORY: number; NOFOLLOW: number; VALID: number; STATUS: number };

export function openFlags(arch: "x64" | "arm64"): OpenFlags {
  const f = { ...COMMON, ...BY_ARCH[arch] };
  const VALID = Object.values(f).reduce((a, b) => a | b, 0);
  // What fcntl(F_SETFL) sets: the status flags an open gave, restored after the gate opened without blocking.
  const STATUS = f.APPEND | f.ASYNC | f.DIRECT | f.NOATIME | f.NONBLOCK;
  return { ...f, VALID, STATUS };
}
