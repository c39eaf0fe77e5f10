import type { AtCalls } from "./at-calls-contract.ts";

export type { AtCalls, Dir } from "./at-calls-contract.ts";

let calls: AtCalls | undefined;

/** The platform's implementation, loaded on the first write (bun:ffi and libc stay out of start-up). */
export async function atCalls(): Promise<AtCalls> {
  calls ??= process.platform === "win32" ? (await import("./named-at.ts")).namedAt : (await import("./libc-at.ts")).libcAt();
  return calls;
}
