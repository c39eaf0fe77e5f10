/**
 * The gate's seccomp filter, run here by a small classic-BPF interpreter (the few instructions it
 * uses) on the seccomp_data the kernel would hand it: which calls reach the gate, which run, which fail.
 */
import { expect, test } from "bun:test";
import { gateFilter, RET } from "../../../src/sandbox/gate/bpf-program.ts";
import { openFlags } from "../../../src/sandbox/gate/open-flags.ts";
import { AUDIT_ARCH, syscallNumber, type Arch, type SyscallName } from "../../../src/sandbox/gate/syscall-table.ts";

function run(program: Uint8Array, data: { nr: number; arch: number; args?: number[] }): number {
  const view = new DataView(program.buffer);
  const word = (offset: number) => (offset === 0 ? data.nr : offset === 4 ? data.arch : offset >= 16 && (offset - 16) % 8 === 0 ? (data.args?.[(offset - 16) / 8] ?? 0) >>> 0 : 0);
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    if (code === 0x20) acc = word(k);
    else if (code === 0x54) acc = (acc & k) >>> 0;
    else if (code === 0x06) return k;
    else {
      const taken = code === 0x15 ? acc === k : code === 0x35 ? acc >= k : code === 0x45 ? (acc & k) !== 0 : undefined;
      if (taken === undefined) throw new Error(`unknown instruction ${code.toString(16)}`);
      pc += taken ? jt : jf;
    }
  }
  throw new Error("fell off the end");
}

for (const arch of ["x64", "arm64"] as Arch[]) {
  const program = gateFilter(arch);
  const O = openFlags(arch);
  const call = (name: SyscallName, args: number[] = []) => run(program, { nr: syscallNumber(arch, name)!, arch: AUDIT_ARCH[arch], args });
  // openat's flags are its third argument; open's (x86-64 only) its second.
  const openat = (flags: number) => call("openat", [-100 >>> 0, 0x1000, flags]);

  test(`${arch}: every open that can read or write a file goes to the gate; a folder or a bare handle does not`, () => {
    expect(openat(0)).toBe(RET.USER_NOTIF);
    expect(openat(O.WRONLY | O.CREAT | O.TRUNC)).toBe(RET.USER_NOTIF);
    expect(openat(O.RDWR | O.CLOEXEC)).toBe(RET.USER_NOTIF);
    expect(openat(O.DIRECTORY | O.CLOEXEC)).toBe(RET.ALLOW);
    expect(openat(O.PATH)).toBe(RET.ALLOW);
    expect(openat(O.DIRECTORY | O.CREAT)).toBe(RET.USER_NOTIF);
    expect(openat(O.DIRECTORY | O.TMPFILE_BIT | O.RDWR)).toBe(RET.USER_NOTIF);
    if (arch === "x64") {
      expect(call("open", [0x1000, 0])).toBe(RET.USER_NOTIF);
      expect(call("open", [0x1000, O.DIRECTORY])).toBe(RET.ALLOW);
      expect(call("creat", [0x1000, 0o644])).toBe(RET.USER_NOTIF);
    }
    for (const name of ["openat2", "renameat2", "linkat", "unlinkat", "mkdirat", "symlinkat", "mknodat", "truncate"] as const) expect(call(name)).toBe(RET.USER_NOTIF);
  });

  test(`${arch}: what would go around the gate fails; ordinary calls run`, () => {
    for (const name of ["io_uring_setup", "userfaultfd", "mount", "chroot", "setns", "open_tree"] as const) expect(call(name)).toBe(RET.ERRNO | 1);
    expect(call("clone3")).toBe(RET.ERRNO | 38);
    expect(call("clone", [0x10000000 /* CLONE_NEWUSER */])).toBe(RET.ERRNO | 1);
    expect(call("clone", [0x01200011 /* fork's flags */])).toBe(RET.ALLOW);
    expect(call("unshare", [0x00020000 /* CLONE_NEWNS */])).toBe(RET.ERRNO | 1);
    expect(call("seccomp", [1, 1 << 3 /* a second listener */])).toBe(RET.ERRNO | 1);
    expect(call("seccomp", [1, 0])).toBe(RET.ALLOW);
    expect(call("ioctl")).toBe(RET.ALLOW);
    expect(call("process_vm_readv")).toBe(RET.ALLOW);
  });

  test(`${arch}: a syscall of another ABI is killed`, () => {
    expect(run(program, { nr: 5, arch: 0x40000003 /* i386 */ })).toBe(RET.KILL_PROCESS);
    if (arch === "x64") expect(run(program, { nr: 0x40000000 + 257, arch: AUDIT_ARCH.x64 })).toBe(RET.KILL_PROCESS);
  });
}
