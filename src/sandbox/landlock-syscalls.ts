import { closeSync, openSync, readdirSync, statSync } from "node:fs";
import { dlopen, ptr } from "bun:ffi";

/**
 * Linux Landlock through libc's `syscall`, by bun:ffi (no dependency): the kernel's ABI version, a
 * ruleset of paths and what each may do, and restricting this process to it (the launcher then starts
 * the command, which so runs in the domain). Nothing here runs unless asked: loading it opens no library.
 */

// x86-64 and aarch64 share these numbers (the syscalls are newer than the tables diverged).
const SYS = { createRuleset: 444n, addRule: 445n, restrictSelf: 446n } as const;
const PR_SET_NO_NEW_PRIVS = 38;
const CREATE_RULESET_VERSION = 1;
const RULE_PATH_BENEATH = 1;
// open(2)'s O_PATH | O_CLOEXEC on Linux (x86-64 and aarch64).
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;

/** Filesystem rights, by the ABI that brought them (landlock.h). */
export const FS = {
  EXECUTE: 1n << 0n,
  WRITE_FILE: 1n << 1n,
  READ_FILE: 1n << 2n,
  READ_DIR: 1n << 3n,
  REMOVE_DIR: 1n << 4n,
  REMOVE_FILE: 1n << 5n,
  MAKE_CHAR: 1n << 6n,
  MAKE_DIR: 1n << 7n,
  MAKE_REG: 1n << 8n,
  MAKE_SOCK: 1n << 9n,
  MAKE_FIFO: 1n << 10n,
  MAKE_BLOCK: 1n << 11n,
  MAKE_SYM: 1n << 12n,
  REFER: 1n << 13n, // ABI 2
  TRUNCATE: 1n << 14n, // ABI 3
  IOCTL_DEV: 1n << 15n, // ABI 5
} as const;
/** TCP rights (ABI 4). */
export const NET = { BIND_TCP: 1n << 0n, CONNECT_TCP: 1n << 1n } as const;
/** Scopes (ABI 6): abstract Unix sockets and signals stay within the domain. */
export const SCOPE = { ABSTRACT_UNIX_SOCKET: 1n << 0n, SIGNAL: 1n << 1n } as const;

/** Every filesystem right the ABI knows: what a ruleset handles (denies unless a rule grants it). */
export function fsRights(abi: number): bigint {
  let all = (1n << 13n) - 1n;
  if (abi >= 2) all |= FS.REFER;
  if (abi >= 3) all |= FS.TRUNCATE;
  if (abi >= 5) all |= FS.IOCTL_DEV;
  return all;
}

/** The rights that mean something on a file (the others are a folder's): a rule on a file may hold only these. */
export const FILE_RIGHTS = FS.EXECUTE | FS.WRITE_FILE | FS.READ_FILE | FS.TRUNCATE | FS.IOCTL_DEV;

let lib: ReturnType<typeof load> | undefined;
function load() {
  return dlopen("libc.so.6", {
    // Every argument as a 64-bit integer (pointers too): one signature serves the three syscalls.
    syscall: { args: ["i64", "u64", "u64", "u64", "u64"], returns: "i64" },
    prctl: { args: ["i32", "u64", "u64", "u64", "u64"], returns: "i32" },
    capset: { args: ["ptr", "ptr"], returns: "i32" },
    getrlimit: { args: ["i32", "ptr"], returns: "i32" },
    setrlimit: { args: ["i32", "ptr"], returns: "i32" },
  }).symbols;
}
const libc = () => (lib ??= load());

/** The kernel's Landlock ABI (1, 2, …), or 0 where it has none (too old, or the LSM not enabled). */
export function landlockAbi(): number {
  if (process.platform !== "linux") return 0;
  try {
    const version = Number(libc().syscall(SYS.createRuleset, 0n, 0n, BigInt(CREATE_RULESET_VERSION), 0n));
    return version > 0 ? version : 0;
  } catch {
    return 0; // no libc.so.6 (musl): no Landlock through this path
  }
}

export type Ruleset = { handledFs: bigint; handledNet: bigint; scoped: bigint; rules: readonly { path: string; access: bigint }[] };

/**
 * Restricts this process (and what it starts) to `ruleset`, for good: no_new_privs first (the kernel
 * requires it of an unprivileged process, and it keeps a setuid program from undoing the domain).
 * Throws naming the step that failed; a path that is gone is skipped (there is nothing to grant).
 */
export function restrictSelf(abi: number, ruleset: Ruleset): void {
  const c = libc();
  if (c.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n) !== 0) throw new Error("prctl(PR_SET_NO_NEW_PRIVS) failed");
  // struct landlock_ruleset_attr: handled_access_fs, handled_access_net (ABI 4), scoped (ABI 6).
  const attr = new BigUint64Array([ruleset.handledFs, abi >= 4 ? ruleset.handledNet : 0n, abi >= 6 ? ruleset.scoped : 0n]);
  const size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
  const fd = Number(c.syscall(SYS.createRuleset, BigInt(ptr(attr)), BigInt(size), 0n, 0n));
  if (fd < 0) throw new Error("landlock_create_ruleset failed");
  // struct landlock_path_beneath_attr is packed: u64 allowed_access, s32 parent_fd.
  const beneathBytes = new Uint8Array(12);
  const beneath = new DataView(beneathBytes.buffer);
  for (const rule of ruleset.rules) {
    let parent: number;
    try {
      parent = openSync(rule.path, O_PATH | O_CLOEXEC);
    } catch {
      continue;
    }
    beneath.setBigUint64(0, rule.access & ruleset.handledFs, true);
    beneath.setInt32(8, parent, true);
    const added = Number(c.syscall(SYS.addRule, BigInt(fd), BigInt(RULE_PATH_BENEATH), BigInt(ptr(beneathBytes)), 0n));
    closeSync(parent);
    if (added !== 0) throw new Error(`landlock_add_rule failed for ${rule.path}`);
  }
  const restricted = Number(c.syscall(SYS.restrictSelf, BigInt(fd), 0n, 0n, 0n));
  closeSync(fd);
  if (restricted !== 0) throw new Error("landlock_restrict_self failed");
}

const PR_CAPBSET_DROP = 24;
const CAP_LAST = 63;
const CAP_VERSION_3 = 0x20080522;

/**
 * Drops every capability for good, as bwrap's `--cap-drop ALL` does: root (containers, CI) could
 * otherwise read other processes' environment through /proc despite the domain (CAP_SYS_PTRACE) and
 * ignore file permissions. The bounding set goes first, so no exec can bring them back.
 */
export function dropCapabilities(): void {
  const c = libc();
  // Without CAP_SETPCAP (any user but root) this refuses; such a process has nothing there to drop.
  for (let cap = 0; cap <= CAP_LAST; cap++) c.prctl(PR_CAPBSET_DROP, BigInt(cap), 0n, 0n, 0n);
  const header = new Uint32Array([CAP_VERSION_3, 0]);
  const data = new Uint32Array(6); // effective, permitted, inheritable — twice (v3 holds 64 capabilities)
  if (c.capset(ptr(header), ptr(data)) !== 0) throw new Error("capset (dropping capabilities) failed");
}

const RLIMIT_NPROC = 6;

/**
 * Caps how many processes this one and what it starts may have: RLIMIT_NPROC counts every process of
 * the user, so the cap is those the user has now plus `more`. Lowered only, soft and hard alike (an
 * unprivileged process may lower its hard limit, never raise it back).
 */
export function limitProcesses(more: number): void {
  const uid = process.getuid?.();
  if (uid === undefined || uid === 0) return; // root is not bound by it: a pids cgroup holds root instead
  const c = libc();
  const now = new BigUint64Array(2);
  if (c.getrlimit(RLIMIT_NPROC, ptr(now)) !== 0) return;
  const cap = BigInt(processesOf(uid) + more);
  if (now[0]! <= cap) return;
  c.setrlimit(RLIMIT_NPROC, ptr(new BigUint64Array([cap, cap < now[1]! ? cap : now[1]!])));
}

/** The user's processes now, from /proc (each one's owner is its folder's). */
function processesOf(uid: number): number {
  let count = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    if (statSync(`/proc/${name}`, { throwIfNoEntry: false })?.uid === uid) count++;
  }
  return count;
}
