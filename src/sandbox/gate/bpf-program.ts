import { openFlags } from "./open-flags.ts";
import { AUDIT_ARCH, syscallNumber, type Arch, type SyscallName } from "./syscall-table.ts";

// Classic BPF as seccomp runs it (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const ALU_AND_K = 0x54;
const RET_K = 0x06;
export const RET = { KILL_PROCESS: 0x80000000, ALLOW: 0x7fff0000, USER_NOTIF: 0x7fc00000, ERRNO: 0x00050000 } as const;
const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;
const AF_UNIX = 1;
const AF_NETLINK = 16;
const SOCK_TYPE = 0xf;
const SOCK_DGRAM = 2;
// struct seccomp_data: nr, arch, instruction_pointer, args[6] (the low word of each, little-endian).
const NR = 0;
const ARCH_AT = 4;
const argLow = (i: number) => 16 + 8 * i;

// clone's namespace flags.
const NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000; // NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
const SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3;

/** What the gate watches: every call that opens, makes, removes or renames by path, and umask (which files it makes take). */
export const WATCHED: readonly SyscallName[] = ["umask", "open", "creat", "openat", "openat2", "rename", "renameat", "renameat2", "link", "linkat", "unlink", "unlinkat", "rmdir", "mkdir", "mkdirat", "symlink", "symlinkat", "mknod", "mknodat", "truncate"];
const REFUSED: readonly SyscallName[] = ["io_uring_setup", "io_uring_enter", "io_uring_register", "uselib", "userfaultfd", "setns", "chroot", "pivot_root", "mount", "umount2", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr"];

type Insn = { code: number; jt: number | string; jf: number | string; k: number };

/** What a command may do, as the filter holds it. */
export type GateMode = { level: "read-only" | "workspace-write"; offline: boolean };

/**
 * The gate's seccomp filter. At `workspace-write` every open goes to the gate (USER_NOTIF) but one
 * that can read nothing — a folder (O_DIRECTORY without O_CREAT or O_TMPFILE) or a bare handle
 * (O_PATH), which most file walks are; `read-only` commands have Landlock's masks for their reads,
 * so only an open that writes goes. Makes, removes, renames and umask always go. Offline, a socket
 * is a Unix or netlink one only (no UDP or TCP of any family), never a Unix datagram socket (which
 * sends to any path), a connect goes to the gate (which judges the path) and a sendto naming an
 * address fails. The calls in REFUSED fail with EPERM, as do namespace flags to clone and unshare
 * and a second listener; clone3 gets ENOSYS (its flags are out of reach: libc falls back to clone);
 * any other ABI's syscall kills the process. Everything else runs as it is.
 */
export function gateFilter(arch: Arch, mode: GateMode = { level: "workspace-write", offline: false }): Uint8Array {
  const nr = (name: SyscallName) => syscallNumber(arch, name);
  const O = openFlags(arch);
  const prog: Insn[] = [];
  const at = (code: number, k: number, jt: number | string = 0, jf: number | string = 0) => prog.push({ code, jt, jf, k });
  const label = (name: string) => prog.push({ code: -1, jt: 0, jf: 0, k: 0, name } as Insn & { name: string });
  at(LD_W_ABS, ARCH_AT);
  at(JEQ_K, AUDIT_ARCH[arch], 1, 0);
  at(RET_K, RET.KILL_PROCESS);
  at(LD_W_ABS, NR);
  if (arch === "x64") at(JGE_K, 0x40000000, "kill", 0); // the x32 ABI shares the architecture
  const branch = (name: SyscallName, to: string) => {
    const n = nr(name);
    if (n !== undefined) at(JEQ_K, n, to, 0);
  };
  branch("open", "open1");
  branch("openat", "open2");
  branch("clone", "clone");
  branch("unshare", "clone");
  branch("seccomp", "seccomp");
  branch("clone3", "enosys");
  if (mode.offline) {
    branch("socket", "socket");
    branch("socketpair", "socket");
    branch("connect", "notify");
    branch("sendto", "sendto");
  }
  for (const name of WATCHED) if (name !== "open" && name !== "openat") branch(name, "notify");
  for (const name of REFUSED) branch(name, "eperm");
  at(RET_K, RET.ALLOW);
  // open(path, flags, mode) and openat(dirfd, path, flags, mode): flags are the second and third argument.
  for (const [name, arg] of [["open1", 1], ["open2", 2]] as const) {
    label(name);
    at(LD_W_ABS, argLow(arg));
    at(JSET_K, O.PATH, "allow", 0);
    if (mode.level === "read-only") at(JSET_K, 3 | O.CREAT | O.TRUNC | O.TMPFILE_BIT, "notify", "allow");
    else {
      at(ALU_AND_K, O.DIRECTORY | O.CREAT | O.TMPFILE_BIT);
      at(JEQ_K, O.DIRECTORY, "allow", "notify");
    }
  }
  if (mode.offline) {
    // socket(domain, type, protocol) and socketpair(domain, type, protocol, sv).
    label("socket");
    at(LD_W_ABS, argLow(0));
    at(JEQ_K, AF_NETLINK, "allow", 0);
    at(JEQ_K, AF_UNIX, 0, "eacces");
    at(LD_W_ABS, argLow(1));
    at(ALU_AND_K, SOCK_TYPE);
    at(JEQ_K, SOCK_DGRAM, "eacces", "allow");
    // sendto(fd, buf, len, flags, dest_addr, addrlen): only with no address (a pointer: both halves zero).
    label("sendto");
    at(LD_W_ABS, argLow(4));
    at(JEQ_K, 0, 0, "eacces");
    at(LD_W_ABS, argLow(4) + 4);
    at(JEQ_K, 0, "allow", "eacces");
  }
  label("clone");
  at(LD_W_ABS, argLow(0));
  at(JSET_K, NAMESPACES, "eperm", "allow");
  label("seccomp");
  at(LD_W_ABS, argLow(1));
  at(JSET_K, SECCOMP_FILTER_FLAG_NEW_LISTENER, "eperm", "allow");
  label("notify");
  at(RET_K, RET.USER_NOTIF);
  label("allow");
  at(RET_K, RET.ALLOW);
  label("eperm");
  at(RET_K, RET.ERRNO | EPERM);
  label("eacces");
  at(RET_K, RET.ERRNO | EACCES);
  label("enosys");
  at(RET_K, RET.ERRNO | ENOSYS);
  label("kill");
  at(RET_K, RET.KILL_PROCESS);
  return assemble(prog);
}

/** Labels resolved to the relative jumps BPF takes (forward only, at most 255 instructions). */
function assemble(prog: (Insn & { name?: string })[]): Uint8Array {
  const real: Insn[] = [];
  const labels = new Map<string, number>();
  for (const insn of prog) {
    if (insn.code === -1) labels.set(insn.name!, real.length);
    else real.push(insn);
  }
  const bytes = new Uint8Array(real.length * 8);
  const view = new DataView(bytes.buffer);
  real.forEach((insn, i) => {
    const jump = (to: number | string) => {
      if (typeof to === "number") return to;
      const target = labels.get(to);
      if (target === undefined || target <= i || target - i - 1 > 255) throw new Error(`bpf: bad jump to ${to} from ${i}`);
      return target - i - 1;
    };
    view.setUint16(i * 8, insn.code, true);
    view.setUint8(i * 8 + 2, jump(insn.jt));
    view.setUint8(i * 8 + 3, jump(insn.jf));
    view.setUint32(i * 8 + 4, insn.k >>> 0, true);
  });
  return bytes;
}
