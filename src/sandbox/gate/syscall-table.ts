/**
 * The syscalls the gate watches or refuses, by number, for the two architectures shiro is built for.
 * aarch64 has only the `*at` forms (its table is the generic one); a name missing there is `undefined`.
 */
export type Arch = "x64" | "arm64";

/** AUDIT_ARCH_* as seccomp_data.arch reports it: a syscall of any other ABI (i386, x32) is refused. */
export const AUDIT_ARCH: Record<Arch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };

const TABLE = {
  open: [2, undefined],
  creat: [85, undefined],
  openat: [257, 56],
  openat2: [437, 437],
  rename: [82, undefined],
  renameat: [264, 38],
  renameat2: [316, 276],
  link: [86, undefined],
  linkat: [265, 37],
  unlink: [87, undefined],
  unlinkat: [263, 35],
  rmdir: [84, undefined],
  mkdir: [83, undefined],
  mkdirat: [258, 34],
  symlink: [88, undefined],
  symlinkat: [266, 36],
  mknod: [133, undefined],
  mknodat: [259, 33],
  truncate: [76, 45],
  // Refused outright: ways around a path check (io_uring opens files without a syscall of its own, a
  // second listener would take the notifications), or out of the view the gate resolves paths in.
  io_uring_setup: [425, 425],
  io_uring_enter: [426, 426],
  io_uring_register: [427, 427],
  seccomp: [317, 277],
  uselib: [134, undefined],
  userfaultfd: [323, 282],
  clone: [56, 220],
  clone3: [435, 435],
  unshare: [272, 97],
  setns: [308, 268],
  chroot: [161, 51],
  pivot_root: [155, 41],
  mount: [165, 40],
  umount2: [166, 39],
  open_tree: [428, 428],
  move_mount: [429, 429],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  mount_setattr: [442, 442],
  // Offline, the network's way in.
  socket: [41, 198],
  socketpair: [53, 199],
  connect: [42, 203],
  sendto: [44, 206],
  // Used by the gate itself.
  ioctl: [16, 29],
  process_vm_readv: [310, 270],
  pidfd_open: [434, 434],
  pidfd_getfd: [438, 438],
  readlinkat: [267, 78],
  ftruncate: [77, 46],
  umask: [95, 166],
  fstat: [5, 80],
  newfstatat: [262, 79],
} as const satisfies Record<string, readonly [number, number | undefined]>;

export type SyscallName = keyof typeof TABLE;

/** The running machine's architecture, or undefined where the gate has no table (it then does not start). */
export function currentArch(): Arch | undefined {
  return process.arch === "x64" ? "x64" : process.arch === "arm64" ? "arm64" : undefined;
}

export function syscallNumber(arch: Arch, name: SyscallName): number | undefined {
  return TABLE[name][arch === "x64" ? 0 : 1];
}

const byNumber = new Map<Arch, Map<number, SyscallName>>();
/** The name of a number on `arch` (for a notification), or undefined for one the gate does not watch. */
export function syscallName(arch: Arch, nr: number): SyscallName | undefined {
  let names = byNumber.get(arch);
  if (!names) {
    names = new Map(Object.keys(TABLE).flatMap((name) => ((n) => (n === undefined ? [] : [[n, name as SyscallName] as const]))(syscallNumber(arch, name as SyscallName))));
    byNumber.set(arch, names);
  }
  return names.get(nr);
}
