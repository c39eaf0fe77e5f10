import { findTrusted, type TrustedLookup, type TrustedProgram } from "../process/trusted-program.ts";
import { gateSupport } from "./gate/gate-support.ts";
import { landlockAbi } from "./landlock-syscalls.ts";

/** Which OS sandbox this machine offers, found once per run; `none` says why and what to do about it. */
export type SandboxSupport =
  | { kind: "bwrap"; path: string; program: TrustedProgram }
  /** `passedOver`: why bubblewrap was not used (it is preferred where it runs); `gate`: whether the gate runs here, or why not. */
  | { kind: "landlock"; abi: number; passedOver?: string; gate: true | string }
  | { kind: "sandbox-exec"; path: string }
  | { kind: "none"; why: string; fix: string };

/** `sandbox.backend` / SHIRO_SANDBOX_BACKEND: `auto` takes the first that runs; any other is that one or an error. */
export type SandboxBackend = "auto" | "bwrap" | "landlock" | "none";
export const SANDBOX_BACKENDS: readonly SandboxBackend[] = ["auto", "bwrap", "landlock", "none"];

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";
const LANDLOCK_FIX = "use a kernel with Landlock (Linux 5.13 or later, the LSM enabled: lsm=…,landlock)";

export type DetectOptions = { platform?: NodeJS.Platform; backend?: SandboxBackend; find?: (name: string) => TrustedLookup; abi?: () => number; gate?: typeof gateSupport };

/**
 * On Linux, bubblewrap where it can make its namespaces; else Landlock where the kernel has it (no
 * namespace, no root: GitHub's Ubuntu 24.04 runners, Docker's default profile, hardened users); else
 * none. `find` and `abi` are the real lookups unless a test hands in others.
 */
export async function detectSandbox(opts: DetectOptions = {}): Promise<SandboxSupport> {
  const platform = opts.platform ?? process.platform;
  const backend = opts.backend ?? "auto";
  if (backend === "none") return { kind: "none", why: "sandbox.backend is none", fix: "set it to auto to use the sandbox this machine offers" };
  if (platform === "darwin") {
    if (await Bun.file(SANDBOX_EXEC).exists()) return { kind: "sandbox-exec", path: SANDBOX_EXEC };
    return { kind: "none", why: `${SANDBOX_EXEC} is missing`, fix: "it ships with macOS; check the system, or run with --sandbox off" };
  }
  if (platform !== "linux") return { kind: "none", why: `no sandbox is supported on ${platform}`, fix: "run with --sandbox off to silence this" };
  const bwrap = backend === "landlock" ? undefined : probeBwrap(opts.find ?? findTrusted);
  if (bwrap?.kind === "bwrap" || backend === "bwrap") return bwrap!;
  const abi = (opts.abi ?? landlockAbi)();
  if (abi > 0) {
    const gate = (opts.gate ?? gateSupport)();
    return { kind: "landlock", abi, gate: gate.ok || gate.why, ...(bwrap ? { passedOver: bwrap.why } : {}) };
  }
  if (backend === "landlock") return { kind: "none", why: "the kernel offers no Landlock", fix: LANDLOCK_FIX };
  return { kind: "none", why: `${bwrap!.why}, and the kernel offers no Landlock`, fix: `${bwrap!.fix}; or ${LANDLOCK_FIX}` };
}

function probeBwrap(find: (name: string) => TrustedLookup): Extract<SandboxSupport, { kind: "bwrap" | "none" }> {
  // By absolute path from root's folders alone: a `bwrap` planted on PATH would run every command unconfined.
  const found = find("bwrap");
  if (!found.ok) return { kind: "none", why: found.why, fix: "install bubblewrap from the system's packages (apt-get install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap)" };
  const path = found.program.path;
  // Present is not enough: a kernel or container may refuse the namespaces bwrap needs.
  const probe = Bun.spawnSync([path, "--die-with-parent", "--unshare-pid", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "/bin/sh", "-c", ":"], { stdout: "ignore", stderr: "pipe" });
  if (probe.exitCode === 0) return { kind: "bwrap", path, program: found.program };
  const said = probe.stderr.toString().trim().split("\n")[0] || `exit code ${probe.exitCode}`;
  return {
    kind: "none",
    why: `bwrap cannot create its namespaces here (${said})`,
    fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or the AppArmor rule for bwrap), or run with --sandbox off",
  };
}

/** One line for `shiro doctor` and the once-per-run notice. */
export function describeSupport(support: SandboxSupport): string {
  if (support.kind === "none") return `none: ${support.why}; ${support.fix}`;
  if (support.kind === "landlock") return `Landlock (ABI ${support.abi})${support.passedOver ? `, as bubblewrap cannot run: ${support.passedOver}` : ""}`;
  return `${support.kind === "bwrap" ? "bubblewrap" : "sandbox-exec"} (${support.path})`;
}
