import { lstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isInside } from "../files/project-paths.ts";
import { FILE_RIGHTS, FS, fsRights, NET, SCOPE, type Ruleset } from "./landlock-syscalls.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import { shiroFiles } from "./shiro-self.ts";

// What every command reads: the system's programs, libraries, settings, and the kernel's views.
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/snap", "/proc", "/sys"];
// Devices a shell and its tools write (`> /dev/null`, a terminal), one by one: a disk never.
const DEVICES = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"];
const READ = FS.EXECUTE | FS.READ_FILE | FS.READ_DIR;

type Rule = { path: string; access: bigint };

/**
 * The Landlock ruleset that holds `policy` as far as the ABI allows. Landlock only grants, so what
 * bwrap masks is left out: a folder on the way to a secret (or to git's config and hooks in a writable
 * project) is granted only its listing, and each thing in it its own rights — the siblings of what is
 * masked. The cost, named by `shiro doctor`: nothing can be made or removed directly in a folder on
 * the way (in a git project, the top folder); its files are still written, its subfolders wholly.
 * `own` is the command's own folder (its TMPDIR and home). With `gated`, the project and the added
 * folders are granted whole, holes and all: the gate (gate/) keeps what is masked or read-only in them,
 * so a build can make its `dist/` at the top. The network, when cut, is TCP (ABI 4); abstract Unix
 * sockets and signals stay inside (ABI 6).
 */
export function landlockRuleset(policy: SandboxPolicy, abi: number, own: string, gated = false): Ruleset {
  const all = fsRights(abi);
  const work = policy.level === "workspace-write" ? all : READ;
  const holes = new Map<string, bigint>([...policy.maskFiles, ...policy.maskDirs].map((p) => [p, 0n]));
  if (policy.level === "workspace-write") for (const p of policy.readOnly) holes.set(p, READ);
  const writeHoles = gated ? new Map<string, bigint>() : holes;
  const rules: Rule[] = [
    ...[...SYSTEM, ...(policy.network ? ["/run"] : [])].map((path) => ({ path, access: READ })),
    { path: "/dev", access: FS.READ_DIR },
    ...DEVICES.map((path) => ({ path, access: FS.READ_FILE | FS.WRITE_FILE | (abi >= 5 ? FS.IOCTL_DEV : 0n) })),
    { path: own, access: all },
    // shiro itself, which the launcher starts again behind the gate.
    ...shiroFiles().map(({ file, dir }) => ({ path: file, access: dir ? READ : FS.EXECUTE | FS.READ_FILE })),
    ...policy.readable.flatMap((dir) => grant(dir, READ, holes)),
    ...[policy.root, ...policy.writable].flatMap((dir) => grant(dir, work, writeHoles)),
  ];
  return {
    handledFs: all,
    handledNet: policy.network || abi < 4 ? 0n : NET.BIND_TCP | NET.CONNECT_TCP,
    scoped: abi >= 6 ? SCOPE.ABSTRACT_UNIX_SOCKET | SCOPE.SIGNAL : 0n,
    // A rule on anything but a folder may hold only a file's rights (the kernel refuses the rest).
    rules: rules.map((r) => (isFolder(r.path) ? r : { ...r, access: r.access & FILE_RIGHTS })),
  };
}

/** `rights` on `dir`, unless a hole lies below it: then its listing alone, and each entry its own (recursively). */
function grant(dir: string, rights: bigint, holes: ReadonlyMap<string, bigint>): Rule[] {
  const hole = holes.get(dir);
  if (hole !== undefined) return hole ? [{ path: dir, access: hole }] : [];
  if (![...holes.keys()].some((h) => h !== dir && isInside(h, dir))) return [{ path: dir, access: rights }];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  // A link is not followed: the kernel judges a read through it where it lands, which needs a grant of its own.
  const entries = names.map((name) => join(dir, name)).filter((path) => !lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink());
  return [{ path: dir, access: FS.READ_DIR }, ...entries.flatMap((path) => grant(path, rights, holes))];
}

const isFolder = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
