import { listPrivateWrites } from "./private-writes.ts";
import { JOIN_FDS } from "./session-network.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";

/**
 * The bubblewrap arguments that run `command` under `policy`, without the program's own path. Pure.
 * The whole filesystem is bound read-only, /tmp and the hidden folders are private tmpfs, the folders
 * a command may see are bound again, then every secret is masked: mounts made later cover earlier
 * ones, so the order below matters. `--unshare-pid` hides every other process (their environ holds
 * the API key) and ends the command's background jobs with it; `--die-with-parent` ends it all if
 * shiro dies; `--cap-drop ALL` keeps a command run as root (containers, CI) from unmounting the masks.
 * The options reach bwrap through a pipe (`--args`), so /proc/1/cmdline inside names no masked path.
 * After the command, its shell lists on fd 5 the files it left in /tmp and the hidden folders (private-writes.ts).
 */
export function bwrapArgs(policy: SandboxPolicy, command: readonly string[]): { options: string[]; command: string[] } {
  const args = ["--die-with-parent", "--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL"];
  // Offline, a network namespace of its own — or the session's, entered before bwrap starts (session-network.ts).
  if (!policy.network && !policy.sharedNetwork) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  for (const dir of policy.hide) args.push("--tmpfs", dir);
  for (const dir of policy.readable) args.push("--ro-bind", dir, dir);
  const bind = policy.level === "workspace-write" ? "--bind" : "--ro-bind";
  for (const dir of [policy.root, ...policy.writable]) args.push(bind, dir, dir);
  for (const path of policy.readOnly) args.push("--ro-bind", path, path);
  for (const dir of policy.maskDirs) args.push("--tmpfs", dir, "--remount-ro", dir);
  for (const file of policy.maskFiles) args.push("--ro-bind", "/dev/null", file);
  for (const [name, value] of Object.entries(policy.setenv)) args.push("--setenv", name, value);
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", policy.cwd ?? policy.root);
  // bwrap takes the command itself from its own argv, after `--`.
  return { options: args, command: ["--", ...limited(policy.maxProcs, ["/tmp", ...policy.hide], command)] };
}

/**
 * The command behind a process limit (bwrap has none, and the shell's `ulimit` binds every user but root),
 * then the list of what it left in its private folders (`dirs`), its exit status kept. The command gets
 * neither the listing's fd nor the session's namespaces a joining command came in with.
 */
const limited = (maxProcs: number, dirs: readonly string[], command: readonly string[]) => [
  "/bin/sh",
  "-c",
  `ulimit -u ${maxProcs} 2>/dev/null; "$@" 5>&- ${JOIN_FDS.map((fd) => `${fd}<&-`).join(" ")}; status=$?; ${listPrivateWrites(dirs)}; exit $status`,
  "sh",
  ...command,
];

/** `--args`' format: NUL-terminated arguments. */
export const argsBytes = (args: readonly string[]): Uint8Array => new TextEncoder().encode(args.map((a) => `${a}\0`).join(""));
