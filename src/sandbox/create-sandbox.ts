import { existsSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandSandbox } from "../tools/tool.ts";
import type { Grant } from "../session/sandbox-level.ts";
import { isInside } from "../tools/resolve-path.ts";
import { bwrapArgv } from "./bwrap-argv.ts";
import { detectSandbox, type SandboxSupport } from "./detect-sandbox.ts";
import { findSecrets } from "./find-secrets.ts";
import { isPlainGit } from "./plain-git.ts";
import { removeNewSecrets } from "./remove-new-secrets.ts";
import { createSecretScanner } from "./secret-scanner.ts";
import { sandboxExecProfile } from "./sandbox-exec-profile.ts";
import { capLevel, type NetworkMode, type SandboxLevel, type SandboxMode } from "./sandbox-mode.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";

export type SandboxOptions = {
  mode: SandboxMode;
  network: NetworkMode;
  home: string;
  shiroHome: string;
  warn: (line: string) => void;
  detect?: () => Promise<SandboxSupport>;
  /** Which files are secret (config `secretFiles` too): what the sandbox masks. Built-in names when unset. */
  isSecretPath?: (path: string) => boolean;
};

/** This run's sandbox for commands: what is in force (probed on first use), and one command's confinement. */
export type Sandbox = {
  /** `off`, or what the machine offers; the first call says once on stderr when commands run without one. */
  support(): Promise<SandboxSupport | "off">;
  /** A command nobody approved may still run — read-only — when an OS sandbox is in force. */
  canConfine(): Promise<boolean>;
  at(grant: Grant): Promise<CommandSandbox>;
};

const READ_ONLY_NOTE = "It ran in a read-only sandbox (nobody approved writes for it): only /tmp is writable, and it is private to this command.";

export function createSandbox(opts: SandboxOptions): Sandbox {
  let found: Promise<SandboxSupport | "off"> | undefined;
  // One per project folder, kept for the run: a rescan reads only the folders that changed.
  const scanners = new Map<string, ReturnType<typeof createSecretScanner>>();
  const scannerOf = (root: string) => scanners.get(root) ?? scanners.set(root, createSecretScanner(root, opts.isSecretPath)).get(root)!;
  const support = () =>
    (found ??= (async () => {
      if (opts.mode === "off") {
        opts.warn("--sandbox off: commands run without an OS sandbox, under the guard alone");
        return "off" as const;
      }
      const detected = await (opts.detect ?? detectSandbox)();
      if (detected.kind === "none") opts.warn(`no sandbox for commands: ${detected.why}; ${detected.fix}. They run under the guard alone`);
      return detected;
    })());

  return {
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
        prepare(argv, root, command) {
          const scanner = scannerOf(root);
          const before = scanner.scan();
          const secrets = findSecrets({ root, home: opts.home, shiroHome: opts.shiroHome, project: before, isSecretPath: opts.isSecretPath });
          const confined = s !== "off" && s.kind !== "none";
          // Whatever can write the project is checked afterwards for secret files it made.
          const check = () => (!confined || level === "workspace-write" ? removeNewSecrets(root, before, scanner.scan()) : []);
          if (!confined) return { argv, check };
          const policy = policyFor({ root, level, network, home: opts.home, secrets, plainGit: isPlainGit(command, root, opts.home) });
          const wrapped = s.kind === "bwrap" ? bwrapArgv(policy, argv) : [s.path, "-p", sandboxExecProfile(policy, macTempDirs()), ...argv];
          return { argv: wrapped, check, ...(level === "read-only" ? { note: READ_ONLY_NOTE } : {}) };
        },
      };
    },
  };
}

// A writable project keeps its history read-only to anything but plain git (plain-git.ts), and even git
// cannot touch what git runs later, outside any sandbox: a planted hook or config entry would escape it.
const GIT_CODE = [".git/hooks", ".git/config"];

/** /tmp is private inside the sandbox: a project or home under it is bound again, and masks under it alone are moot. */
function policyFor(o: { root: string; level: SandboxLevel; network: boolean; home: string; secrets: { files: string[]; dirs: string[] }; plainGit: boolean }): SandboxPolicy {
  const keep = [...new Set([o.home, o.root])].filter((dir) => isInside(dir, "/tmp") && dir !== "/tmp");
  const visible = (path: string) => !isInside(path, "/tmp") || keep.some((dir) => isInside(path, dir));
  const readOnly = o.level === "workspace-write" ? (o.plainGit ? GIT_CODE : [".git"]).map((p) => join(o.root, p)).filter((p) => existsSync(p)) : [];
  return { root: o.root, level: o.level, network: o.network, maskFiles: o.secrets.files.filter(visible), maskDirs: o.secrets.dirs.filter(visible), keep: keep.filter((dir) => dir !== o.root), readOnly };
}

const macTempDirs = () => [...new Set(["/private/tmp", "/private/var/folders", realpathOr(tmpdir())])];
const realpathOr = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};
