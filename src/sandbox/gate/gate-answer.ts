import type { SyscallName } from "./syscall-table.ts";

/** One watched call: who made it, which, and its six arguments (pointers and integers as numbers). */
export type Call = { pid: number; name: SyscallName; args: readonly number[] };

/**
 * The gate's answer: an fd to place in the process, the call's return value, an errno — or, for a
 * call with no path to judge (umask), to run it; or a pipe to open off the loop (fifo-opener.ts).
 */
export type Answer = { fd: number; cloexec: boolean } | { value: number } | { error: number } | { continue: true } | { later: { pinned: number; flags: number; cloexec: boolean } };
