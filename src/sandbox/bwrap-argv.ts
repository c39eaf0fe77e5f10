import type { SandboxPolicy } from "./sandbox-policy.ts";

/**
 * The bubblewrap argv that runs `command` under `policy`. Pure. The whole filesystem is bound
 * read-only, /tmp is a private tmpfs, the project is bound again (writable at `workspace-write`),
 * then every secret is masked: mounts made later cover earlier ones, so the order below matters.
 * `--unshare-pid` hides every other process (their /proc/<pid>/environ holds the API key) and ends
 * the command's background jobs with it; `--die-with-parent` ends it all if shiro dies; `--cap-drop
 * ALL` keeps a command run as root (containers, CI) from unmounting the masks.
 */
export function bwrapArgv(policy: SandboxPolicy, command: readonly string[]): string[] {
  const argv = ["bwrap", "--die-with-parent", "--unshare-pid", "--cap-drop", "ALL"];
  if (!policy.network) argv.push("--unshare-net");
  argv.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  for (const dir of policy.keep) argv.push("--ro-bind", dir, dir);
  argv.push(policy.level === "workspace-write" ? "--bind" : "--ro-bind", policy.root, policy.root);
  for (const path of policy.readOnly) argv.push("--ro-bind", path, path);
  for (const dir of policy.maskDirs) argv.push("--tmpfs", dir, "--remount-ro", dir);
  for (const file of policy.maskFiles) argv.push("--ro-bind", "/dev/null", file);
  argv.push("--setenv", "TMPDIR", "/tmp", "--chdir", policy.root, "--", ...command);
  return argv;
}
