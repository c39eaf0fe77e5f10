import { readFileSync } from "node:fs";
import { release } from "node:os";
import { currentArch } from "./syscall-table.ts";

/**
 * Whether the gate can run here, and if not why: it needs x86-64 or aarch64, Linux 5.14 (a listener
 * that places an fd and answers at once), seccomp, and leave to read its own children's memory (Yama's
 * ptrace_scope below 2). Without it, Landlock falls back to keeping masked files by leaving their
 * folders out, and nothing can be made directly in such a folder.
 */
export function gateSupport(read = (path: string) => readFileSync(path, "utf8"), kernel = release()): { ok: true } | { ok: false; why: string } {
  if (!currentArch()) return { ok: false, why: `no seccomp filter for ${process.arch}` };
  const [major = 0, minor = 0] = kernel.split(".").map((n) => parseInt(n, 10));
  if (major < 5 || (major === 5 && minor < 14)) return { ok: false, why: `Linux ${major}.${minor} is older than 5.14` };
  const status = attempt(() => read("/proc/self/status")) ?? "";
  if (!/^Seccomp:/m.test(status)) return { ok: false, why: "the kernel has no seccomp" };
  const scope = Number(attempt(() => read("/proc/sys/kernel/yama/ptrace_scope")) ?? 0);
  if (scope >= 2) return { ok: false, why: `Yama's ptrace_scope is ${scope}: no process may read its children's memory` };
  return { ok: true };
}

const attempt = <T>(f: () => T): T | undefined => {
  try {
    return f();
  } catch {
    return undefined;
  }
};
