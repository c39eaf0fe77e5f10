import { findTrusted, type TrustedLookup, type TrustedProgram } from "../tools/trusted-program.ts";

/** Which OS sandbox this machine offers, found once per run; `none` says why and what to do about it. */
export type SandboxSupport =
  | { kind: "bwrap"; path: string; program: TrustedProgram }
  | { kind: "sandbox-exec"; path: string }
  | { kind: "none"; why: string; fix: string };

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** `find` is findTrusted unless a test hands in a program it made. */
export async function detectSandbox(platform: NodeJS.Platform = process.platform, find: (name: string) => TrustedLookup = findTrusted): Promise<SandboxSupport> {
  if (platform === "darwin") {
    if (await Bun.file(SANDBOX_EXEC).exists()) return { kind: "sandbox-exec", path: SANDBOX_EXEC };
    return { kind: "none", why: `${SANDBOX_EXEC} is missing`, fix: "it ships with macOS; check the system, or run with --sandbox off" };
  }
  if (platform !== "linux") return { kind: "none", why: `no sandbox is supported on ${platform}`, fix: "run with --sandbox off to silence this" };
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
export const describeSupport = (support: SandboxSupport): string =>
  support.kind === "none" ? `none: ${support.why}; ${support.fix}` : `${support.kind === "bwrap" ? "bubblewrap" : "sandbox-exec"} (${support.path})`;
