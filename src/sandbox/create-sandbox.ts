import { existsSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolError } from "../tools/tool.ts";
import type { CommandSandbox } from "../process/prepared-command.ts";
import type { Grant } from "../session/sandbox-level.ts";
import { changedSince } from "../process/trusted-program.ts";
import { isInside } from "../files/project-paths.ts";
import { argsBytes, bwrapArgs } from "./bwrap-argv.ts";
import { commandAftermath, identityOf } from "./command-aftermath.ts";
import { describeSupport, detectSandbox, type SandboxBackend, type SandboxSupport } from "./detect-sandbox.ts";
import { landlockGaps } from "./landlock-gaps.ts";
import { filesIn, findSecrets } from "./find-secrets.ts";
import { gitIdentity } from "./git-identity.ts";
import { gitProtection } from "./git-protection.ts";
import { plantable, present, projectCode, removePlanted } from "./project-code.ts";
import { isSecretPath } from "../guard/secret-path.ts";
import type { Rule } from "../guard/rules.ts";
import { deniedPaths } from "./denied-paths.ts";
import { landlockCommand } from "./landlock-command.ts";
import { pidsGroup } from "./pids-cgroup.ts";
import { leftIn, privateWritesNote } from "./private-writes.ts";
import { isPlainGit } from "./plain-git.ts";
import { createSecretLinks, linkedSecrets, secretLinkOf } from "./secret-links.ts";
import { createSecretScanner, type ProjectScan } from "./secret-scanner.ts";
import { sandboxExecProfile } from "./sandbox-exec-profile.ts";
import { repositoryTop } from "./repository-top.ts";
import { passwdHome } from "./passwd-home.ts";
import { sandboxLayout } from "./sandbox-layout.ts";
import { createSessionNetwork } from "./session-network.ts";
import { worktreeAccess, worktreeRepository } from "./worktree-repository.ts";
import { outermost, programReach } from "./program-reach.ts";
import { capLevel, type NetworkMode, type SandboxMode } from "./sandbox-mode.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";

export type SandboxOptions = {
  mode: SandboxMode;
  /** Which OS sandbox (`auto`: bubblewrap where it runs, else Landlock). */
  backend?: SandboxBackend;
  network: NetworkMode;
  home: string;
  shiroHome: string;
  /** `--add-dir` / `sandbox.writable`, and `sandbox.readable`: absolute folders beside the project. */
  writable?: readonly string[];
  readable?: readonly string[];
  warn: (line: string) => void;
  detect?: () => Promise<SandboxSupport>;
  /** Which files are secret (config `secretFiles` too): what the sandbox masks. Built-in names when unset. */
  isSecretPath?: (path: string) => boolean;
  /** The person's permission rules: a deny on a path for every tool masks that path too. */
  rules?: readonly Rule[];
  /** Files the hooks and MCP servers in force run on the person's behalf (program-files.ts): read-only to commands, and to the hooks themselves. */
  programs?: () => readonly string[];
};

/** This run's sandbox for commands: what is in force (probed on first use), and one command's confinement. */
export type Sandbox = {
  /** `off`, or what the machine offers; the first call says once on stderr when commands run without one. */
  support(): Promise<SandboxSupport | "off">;
  /** A command nobody approved may still run — read-only — when an OS sandbox is in force. */
  canConfine(): Promise<boolean>;
  at(grant: Grant): Promise<CommandSandbox>;
  /** The secret file `path` is a hard link of (in the project or the home), or undefined: the file tools refuse such a path as they refuse the secret. */
  secretLink(path: string, root: string): string | undefined;
  /**
   * The project's secret files as last scanned, for whoever else needs them (the redactor's values):
   * scanned again only when that scan is older than a moment. Every command scans before and after
   * it runs, so what a command made is always in the latest scan.
   */
  projectSecrets(root: string): string[];
};

// A burst of tool calls shares one scan; a file a person adds between them is seen within this long.
const REUSE_SCAN_MS = 2000;
// What a read-only command may still write: bwrap's private /tmp and home, Landlock's own TMPDIR and home (it cannot remount them), macOS's temp folders.
const WRITABLE = { bwrap: "only /tmp and $HOME are writable, and they are private to this command", landlock: "only $TMPDIR and $HOME are writable, and they are private to this command", "sandbox-exec": "only the temp folders are writable" };
const readOnlyNote = (kind: keyof typeof WRITABLE) => `It ran in a read-only sandbox (nobody approved writes for it): ${WRITABLE[kind]}.`;
// Why an offline job's server on 127.0.0.1 is out of the later commands' reach where no namespace can be shared.
const UNSHARED = {
  landlock: "Offline under Landlock no command may open a TCP or UDP socket, so a job cannot serve on 127.0.0.1 to later commands: that needs the network, which only a person gives",
  "sandbox-exec": "Offline, macOS's sandbox cuts every network socket, loopback included, so a job cannot serve on 127.0.0.1 to later commands: that needs the network, which only a person gives",
};
// Enough for a parallel build or a test runner's workers; a runaway loop of forks stops here.
export const MAX_PROCS = 1024;

export function createSandbox(opts: SandboxOptions): Sandbox {
  let found: Promise<SandboxSupport | "off"> | undefined;
  // One per project folder, kept for the run: a rescan reads only the folders that changed.
  const scanners = new Map<string, ReturnType<typeof createSecretScanner>>();
  const denials = new Map<string, ReturnType<typeof deniedPaths>>();
  const deniedIn = (root: string) => denials.get(root) ?? denials.set(root, deniedPaths(opts.rules ?? [], root, opts.home)).get(root)!;
  const isSecret = opts.isSecretPath ?? isSecretPath;
  // A command sees the whole repository when shiro started below its top, so the scan for secrets covers all of it.
  const tops = new Map<string, string>();
  const topOf = (root: string) => tops.get(root) ?? tops.set(root, repositoryTop(root, homes)).get(root)!;
  const scannerOf = (root: string) => scanners.get(root) ?? scanners.set(root, createSecretScanner(topOf(root), (p) => isSecret(p) || deniedIn(root).test(p))).get(root)!;
  const latest = new Map<string, { at: number; scan: ProjectScan }>();
  const scanNow = (root: string) => {
    const scan = scannerOf(root).scan();
    latest.set(root, { at: Date.now(), scan });
    return scan;
  };
  let identity: Record<string, string> | undefined;
  // Hiding the home and its tool folders' existence is the same for every command of a project: found once.
  const layouts = new Map<string, ReturnType<typeof sandboxLayout>>();
  const layoutOf = (root: string, network: boolean) => {
    const key = `${root}\0${network}`;
    return layouts.get(key) ?? layouts.set(key, sandboxLayout({ root, top: topOf(root), homes, network, readable: opts.readable ?? [] })).get(key)!;
  };
  // The person's home as the system knows it too, when HOME points elsewhere: neither is shown to a command.
  // A home that does not exist (a service account's /nonexistent) has nothing to hide, nor a place to mount on.
  const homes = [...new Set([opts.home, passwdHome()].filter((h): h is string => !!h && h !== "/" && existsSync(h)))];
  // Made when the first background job starts under bubblewrap: from then on offline commands share it.
  let sessionNet: ReturnType<typeof createSessionNetwork> | undefined;
  const support = () =>
    (found ??= (async () => {
      if (opts.mode === "off") {
        opts.warn("--sandbox off: commands run without an OS sandbox, under the guard alone");
        return "off" as const;
      }
      const detected = await (opts.detect ?? (() => detectSandbox({ backend: opts.backend })))();
      // A forced backend that cannot run is the caller's error to raise (start-session), not a fallback to announce.
      const forced = opts.backend === "bwrap" || opts.backend === "landlock";
      if (detected.kind === "none" && !forced) opts.warn(`no sandbox for commands: ${detected.why}; ${detected.fix}. They run under the guard alone`);
      if (detected.kind === "landlock") opts.warn(`commands run under Landlock (${describeSupport(detected)}); it does not hold: ${landlockGaps(detected.abi, detected.gate).join("; ")}`);
      return detected;
    })());

  const projectSecrets = (root: string) => {
    const last = latest.get(root);
    const scan = last && Date.now() - last.at < REUSE_SCAN_MS ? last.scan : scanNow(root);
    return scan.secrets.filter((p) => isSecret(p));
  };
  // The secrets with other names (hard links), by identity: a command's masks and the file tools' refusals take those names too.
  const secretsOf = (root: string, project: readonly string[]) => findSecrets({ root, home: opts.home, shiroHome: opts.shiroHome, project: [...project, ...deniedIn(root).outside], isSecretPath: opts.isSecretPath });
  const linkedIn = (secrets: ReturnType<typeof findSecrets>) => linkedSecrets([...secrets.files, ...secrets.dirs.flatMap(filesIn)]);
  const linkFinders = new Map<string, ReturnType<typeof createSecretLinks>>();
  const linksIn = (root: string) => linkFinders.get(root) ?? linkFinders.set(root, createSecretLinks(topOf(root))).get(root)!;
  // Asked of every path a file tool touches: the secrets' identities are found again only after a moment.
  const linkedNow = new Map<string, { at: number; ids: Map<string, string> }>();
  const linkedFor = (root: string) => {
    const last = linkedNow.get(root);
    if (last && Date.now() - last.at < REUSE_SCAN_MS) return last.ids;
    const ids = linkedIn(secretsOf(root, projectSecrets(root)));
    linkedNow.set(root, { at: Date.now(), ids });
    return ids;
  };
  return {
    projectSecrets,
    secretLink: (path, root) => secretLinkOf(path, linkedFor(root)),
    support,
    canConfine: async () => {
      const s = await support();
      return s !== "off" && s.kind !== "none";
    },
    async at(grant) {
      const s = await support();
      const level = capLevel(grant.level, opts.mode);
      // The network is a person's to give: for the run (--network) or to a command they approved.
      const network = opts.network === "on" || (opts.network === "approved" && grant.byPerson);
      return {
        async shareNetwork() {
          if (network || s === "off") return undefined;
          if (s.kind === "bwrap") return (sessionNet ??= createSessionNetwork(s.path)).start();
          return s.kind === "none" ? undefined : UNSHARED[s.kind];
        },
        prepare(argv, root, command, reach) {
          const confined = s !== "off" && s.kind !== "none";
          // The program vetted at start must still be the one that runs: a swapped bwrap would confine nothing.
          const swapped = s !== "off" && s.kind === "bwrap" ? changedSince(s.program) : undefined;
          if (swapped) throw new ToolError(`Not run: the sandbox program ${swapped}; restart shiro so it can check the program again.`);
          const before = scanNow(root);
          const writes = !confined || level === "workspace-write";
          // Identities of the secrets and repositories there now: one the command moved is still the same, not a new one.
          const knownIds = new Set(writes ? [...before.secrets, ...before.gits].map(identityOf).filter((id): id is string => !!id) : []);
          const quarantine = join(opts.shiroHome, "quarantine");
          const codeBefore = writes ? present(plantable(root)) : new Set<string>();
          const aftermath = () => {
            if (!writes) return { notes: [], denied: false };
            const after = commandAftermath({ root, quarantine, before, knownIds, after: scanNow(root) });
            const planted = removePlanted(root, codeBefore);
            return planted.length ? { notes: [...after.notes, ...planted], denied: true } : after;
          };
          if (!confined) return { argv, check: aftermath };
          // What it left in its private folders is gone: said first, as it is about what the command did.
          const checkWith = (left: string[], own?: { tmp: string; home?: string; shm?: string }) => {
            const after = aftermath();
            const note = privateWritesNote(left, { home: own?.home ?? opts.home, tmp: own?.tmp, shm: own?.shm, level });
            return note ? { ...after, notes: [note, ...after.notes] } : after;
          };
          const check = (listed = "") => checkWith(listed.split("\n").filter(Boolean));
          const secrets = secretsOf(root, before.secrets);
          const links = linksIn(root)(linkedIn(secrets));
          const layout = layoutOf(root, network);
          // A program the person chose to run here is shown where it is installed, should that be hidden (program-reach.ts).
          const shown = reach ? programReach(reach.programs, reach.cwd, { root, homes, seen: [root, ...(opts.writable ?? []), ...layout.readable] }) : [];
          const plainGit = isPlainGit(command, root, opts.home);
          // A linked worktree's repository lies beside the project: shown, and written by plain git (worktree-repository.ts).
          const shared = worktreeAccess(worktreeRepository(topOf(root)), level === "workspace-write", plainGit);
          const readable = shown.length || shared.readable.length ? outermost([...layout.readable, ...shown, ...shared.readable]) : layout.readable;
          const writable = [...(opts.writable ?? []), ...shared.writable];
          const git = level === "workspace-write" ? [...gitProtection(root, before.gits, plainGit), ...shared.readOnly, ...projectCode(root), ...(opts.programs?.() ?? []).filter((file) => isInside(file, root))] : [];
          const seen = [root, ...writable, ...readable];
          // A mask inside a hidden folder is moot (and bwrap would have nothing to mount it on) unless that part is shown again.
          const visible = (path: string) => seen.some((dir) => isInside(path, dir)) || ![...layout.hide, "/tmp"].some((dir) => isInside(path, dir));
          const policy: SandboxPolicy = {
            root,
            level,
            network,
            hide: layout.hide,
            readable,
            writable,
            maskFiles: [...secrets.files, ...links].filter(visible),
            maskDirs: secrets.dirs.filter(visible),
            readOnly: git,
            plantable: level === "workspace-write" ? plantable(root) : [],
            setenv: (identity ??= gitIdentity(opts.home)),
            maxProcs: MAX_PROCS,
            // Hidden unless the project or a readable folder (`sandbox.readable`) is the home itself, or holds it.
            ...(homes.includes(opts.home) && ![topOf(root), ...layout.readable].some((dir) => isInside(opts.home, dir)) ? { home: opts.home } : {}),
            ...(reach && reach.cwd !== root ? { cwd: reach.cwd } : {}),
          };
          const told = { ...(level === "read-only" ? { note: readOnlyNote(s.kind) } : {}), ...(network ? {} : { offline: true }) };
          if (s.kind === "sandbox-exec") return { argv: [s.path, "-p", sandboxExecProfile(policy, macTempDirs()), ...argv], check, ...told };
          const group = pidsGroup(MAX_PROCS);
          const limit = group ? { group } : {};
          if (s.kind === "landlock") {
            const landlock = landlockCommand(policy, argv, s.abi, s.gate === true);
            const checkThenTidy = () => {
              const left = leftIn(landlock.own.dir, new Set(landlock.own.made));
              landlock.removeOwn();
              return checkWith(left, landlock.own);
            };
            return { argv: landlock.argv, fd4: landlock.fd4, check: checkThenTidy, tidy: landlock.removeOwn, ...told, ...limit };
          }
          const joined = network ? undefined : sessionNet?.joined();
          const bwrap = bwrapArgs(joined ? { ...policy, sharedNetwork: true } : policy, argv);
          return { argv: [...(joined?.prefix ?? []), s.path, "--args", "4", ...bwrap.command], fd4: argsBytes(bwrap.options), check, listsPrivateWrites: true, ...told, ...limit, ...(joined ? { fds: joined.fds } : {}) };
        },
      };
    },
  };
}

const macTempDirs = () => [...new Set(["/private/tmp", "/private/var/folders", realpathOr(tmpdir())])];
const realpathOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};
