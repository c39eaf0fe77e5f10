import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isInside } from "../files/project-paths.ts";
import { LAUNCHER, type LandlockPlan } from "./landlock-launch.ts";
import { landlockRuleset } from "./landlock-plan.ts";
import { makePrivateHome, type PrivateHome } from "./private-home.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";
import { shiroSelf } from "./shiro-self.ts";

/** One command under Landlock, as the sandbox runs it: the launcher's argv and plan, and its private folders. */
export type LandlockCommand = {
  argv: string[];
  fd4: Uint8Array;
  /** The command's own folders (its TMPDIR, /dev/shm and home), and the links shiro made there (not the command's). */
  own: { dir: string; tmp: string; shm: string; home?: string; made: string[] };
  removeOwn: () => void;
};

/**
 * One command under Landlock: shiro re-executed as its launcher, the plan on fd 4, folders of its own
 * (Landlock cannot remount /tmp, /dev/shm or the home: the command gets a TMPDIR, a shared-memory
 * folder and a home of its own), removed after. With `gate`, the command runs behind the gate (gate/):
 * a writable project is granted whole and the gate keeps its secrets and the places git and shiro run
 * later; offline, it keeps the command's sockets to its own; at either level it keeps /dev/shm its own.
 */
export function landlockCommand(policy: SandboxPolicy, argv: readonly string[], abi: number, gate: boolean): LandlockCommand {
  const dir = mkdtempSync(join(tmpdir(), "shiro-cmd-"));
  const tmp = join(dir, "tmp");
  mkdirSync(tmp);
  const inHome = (dirs: readonly string[]) => dirs.filter((d) => isInside(d, policy.home!));
  const home: PrivateHome | undefined = policy.home ? { real: policy.home, private: join(dir, "home"), shown: inHome(policy.readable), kept: inHome([policy.root, ...policy.writable]) } : undefined;
  const made = home ? makePrivateHome(home) : [];
  const shm = join(dir, "shm");
  mkdirSync(shm);
  const ruleset = landlockRuleset(policy, abi, dir, gate && policy.level === "workspace-write");
  const program = argv[0]!.startsWith("/") ? argv[0]! : (Bun.which(argv[0]!) ?? argv[0]!);
  const plan: LandlockPlan = {
    abi,
    handledFs: String(ruleset.handledFs),
    handledNet: String(ruleset.handledNet),
    scoped: String(ruleset.scoped),
    rules: ruleset.rules.map((r) => ({ path: r.path, access: String(r.access) })),
    argv: [program, ...argv.slice(1)],
    setenv: { ...policy.setenv, TMPDIR: tmp },
    cwd: policy.cwd ?? policy.root,
    maxProcs: policy.maxProcs,
    ...(home ? { home } : {}),
    ...(gate
      ? {
          gate: {
            secrets: [...policy.maskFiles],
            masked: [...policy.maskDirs],
            readOnly: [...policy.readOnly, ...(policy.plantable ?? [])],
            level: policy.level,
            offline: !policy.network,
            shm,
            sockets: [policy.root, ...policy.writable, dir],
          },
        }
      : {}),
  };
  return {
    argv: [...shiroSelf(), LAUNCHER],
    fd4: new TextEncoder().encode(JSON.stringify(plan)),
    own: { dir, tmp, shm, ...(home ? { home: home.private } : {}), made },
    removeOwn: () => rmSync(dir, { recursive: true, force: true }),
  };
}
