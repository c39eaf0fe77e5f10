import { dlopen, FFIType, ptr, toArrayBuffer, type Pointer } from "bun:ffi";
import { currentArch, syscallNumber, type SyscallName } from "./syscall-table.ts";

/**
 * libc through bun:ffi for the gate: the raw `syscall` (every argument a 64-bit integer, pointers too)
 * and the few calls that have stable symbols. Loaded on first use; nothing here runs unless asked.
 */
let lib: ReturnType<typeof load> | undefined;
function load() {
  return dlopen("libc.so.6", {
    syscall: { args: ["i64", "i64", "i64", "i64", "i64", "i64", "i64"], returns: FFIType.i64_fast },
    ioctl: { args: ["i32", "u64", "ptr"], returns: "i32" },
    poll: { args: ["ptr", "u64", "i32"], returns: "i32" },
    read: { args: ["i32", "ptr", "u64"], returns: FFIType.i64_fast },
    write: { args: ["i32", "ptr", "u64"], returns: FFIType.i64_fast },
    close: { args: ["i32"], returns: "i32" },
    pipe2: { args: ["ptr", "i32"], returns: "i32" },
    openat: { args: ["i32", "ptr", "i32", "u32"], returns: "i32" },
    readlinkat: { args: ["i32", "ptr", "ptr", "u64"], returns: FFIType.i64_fast },
    fcntl: { args: ["i32", "i32", "i64"], returns: "i32" },
    prctl: { args: ["i32", "u64", "u64", "u64", "u64"], returns: "i32" },
    connect: { args: ["i32", "ptr", "u32"], returns: "i32" },
    execve: { args: ["ptr", "ptr", "ptr"], returns: "i32" },
    __errno_location: { args: [], returns: "ptr" },
  }).symbols;
}
export const libc = () => (lib ??= load());

let errnoView: Int32Array | undefined;
/** errno of the calling thread (the gate runs on one), read right after the call that set it. */
export const errno = (): number => (errnoView ??= new Int32Array(toArrayBuffer(libc().__errno_location() as Pointer, 0, 4)))[0]!;

const arch = currentArch();
/** A syscall by name on this machine; -1 with errno set on failure (libc's convention). */
export function sys(name: SyscallName, a = 0, b = 0, c = 0, d = 0, e = 0, f = 0): number {
  const nr = arch && syscallNumber(arch, name);
  if (nr === undefined) throw new Error(`no ${name} syscall on ${process.arch}`);
  return libc().syscall(nr, a, b, c, d, e, f) as number;
}

const encoder = new TextEncoder();
/** A NUL-terminated copy of `s`, to pass as a C string (keep it referenced until the call returns). */
export const cString = (s: string): Uint8Array => encoder.encode(`${s}\0`);
export { ptr };
