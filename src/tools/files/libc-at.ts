import { dlopen, FFIType, read } from "bun:ffi";
import { constants, openSync, closeSync } from "node:fs";
import { constants as os } from "node:os";
import type { AtCalls } from "./at-calls-contract.ts";

/**
 * libc's openat, mkdirat, readlinkat, renameat and unlinkat through bun:ffi, for Linux and macOS.
 * Why FFI: node:fs has no `*at` calls, and checking a path then opening it by name is exactly the race
 * (a folder swapped for a link in between); re-checking after the open only narrows the window, while
 * resolving every name against a folder fd held open closes it. (Linux's /proc/self/fd/N/name would
 * do the same without FFI, but macOS has no such path, and one code path is one that is tested.)
 */
const PLATFORM = {
  linux: { lib: "libc.so.6", errno: "__errno_location", cloexec: 0o2000000 },
  darwin: { lib: "/usr/lib/libSystem.B.dylib", errno: "__error", cloexec: 0x1000000 },
} as const;

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;
const errnoNames = new Map(Object.entries(os.errno).map(([name, n]) => [n, name]));

export function libcAt(): AtCalls {
  const platform = PLATFORM[process.platform as keyof typeof PLATFORM];
  if (!platform) throw new Error(`file writes are not supported on ${process.platform}`);
  const { i32, ptr, i64_fast } = FFIType;
  const lib = dlopen(platform.lib, {
    // openat is variadic; passing `mode` as a fourth fixed argument is what the call ABI expects on
    // x86-64 and Linux arm64. macOS arm64 reads variadic arguments from the stack, so there the mode
    // may be garbage: `create` is followed by an fchmod before a byte is written (file-slot.ts).
    openat: { args: [i32, ptr, i32, i32], returns: i32 },
    mkdirat: { args: [i32, ptr, i32], returns: i32 },
    readlinkat: { args: [i32, ptr, ptr, i64_fast], returns: i64_fast },
    renameat: { args: [i32, ptr, i32, ptr], returns: i32 },
    unlinkat: { args: [i32, ptr, i32], returns: i32 },
    [platform.errno]: { args: [], returns: ptr },
  });
  const fn = lib.symbols as unknown as Record<string, (...args: unknown[]) => number>;
  // errno is per thread and its address fixed; read it right after a failed call, before anything else runs.
  const errnoAt = fn[platform.errno]!();
  const check = (result: number, call: string, name: string): number => {
    if (result >= 0) return result;
    const code = errnoNames.get(read.i32(errnoAt, 0)) ?? "EIO";
    throw Object.assign(new Error(`${code}: ${call} ${JSON.stringify(name)}`), { code, syscall: call });
  };
  const c = (name: string) => Buffer.from(`${name}\0`);
  const open = (dir: number, name: string, flags: number, mode = 0) => check(fn.openat!(dir, c(name), flags | platform.cloexec, mode), "openat", name);
  const link = new Uint8Array(4096);
  return {
    openRoot: (path) => openSync(path, O_RDONLY | O_DIRECTORY),
    openDir: (dir, name) => open(dir as number, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW),
    makeDir: (dir, name) => void check(fn.mkdirat!(dir, c(name), 0o777), "mkdirat", name),
    readLink(dir, name) {
      const length = fn.readlinkat!(dir, c(name), link, link.length);
      if (length < 0 && read.i32(errnoAt, 0) === os.errno.EINVAL) return undefined;
      return Buffer.from(link.subarray(0, check(length, "readlinkat", name))).toString();
    },
    openRead: (dir, name) => open(dir as number, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK),
    create: (dir, name, mode) => open(dir as number, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode),
    rename: (dir, from, to) => void check(fn.renameat!(dir, c(from), dir, c(to)), "renameat", to),
    unlink: (dir, name) => void check(fn.unlinkat!(dir, c(name), 0), "unlinkat", name),
    close: (dir) => closeSync(dir as number),
  };
}
