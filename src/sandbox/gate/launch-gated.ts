import { realpathSync, statSync } from "node:fs";
import { constants } from "node:os";
import { basename, dirname, join } from "node:path";
import { shiroSelf } from "../shiro-self.ts";
import { close } from "./gate-calls.ts";
import { errno, libc, ptr, sys } from "./gate-libc.ts";
import { GATE_EXEC } from "./gate-exec.ts";
import { idOf, type GateRules } from "./gate-rules.ts";
import { supervise } from "./supervise.ts";
import { currentArch } from "./syscall-table.ts";

/** What the plan tells the gate to hold (paths as shiro found them), and the command's level and network. */
export type GatePlan = {
  secrets: string[];
  masked: string[];
  readOnly: string[];
  level: "read-only" | "workspace-write";
  offline: boolean;
  /** The command's own folder standing for /dev/shm. */
  shm: string;
  /** Offline: the folders whose Unix sockets it may reach. */
  sockets: string[];
};

const PR_SET_DUMPABLE = 4;

/** The plan's paths as facts the gate checks: identities of the secrets, real paths (latin1, as the kernel gives them) of the places. */
export function gateRules(plan: GatePlan, abi: number): GateRules {
  const ids = plan.secrets.flatMap((path) => {
    const st = statSync(path, { bigint: true, throwIfNoEntry: false });
    return st ? [idOf(st)] : [];
  });
  // A place not there yet (a `.mcp.json` none may make) is where its folder really is.
  const real = (path: string) => {
    for (const [at, name] of [[path, ""], [dirname(path), basename(path)]]) {
      try {
        return [Buffer.from(join(realpathSync(at!), name!)).toString("latin1")];
      } catch {
        // not there: try its folder
      }
    }
    return [];
  };
  return {
    secretIds: new Set(ids),
    masked: plan.masked.flatMap(real),
    readOnly: plan.readOnly.flatMap(real),
    shm: plan.shm,
    // Abstract sockets stay within the command where Landlock scopes them (ABI 6); offline, none otherwise.
    ...(plan.offline ? { sockets: { places: plan.sockets.flatMap(real), abstract: abi >= 6 } } : {}),
  };
}

/**
 * The launcher's half of the gate, once it is inside its Landlock domain: starts the command through
 * `shiro __gate-exec` (which installs the filter and hands its listener over), answers its watched
 * calls until it ends, and exits as it did. The gate cannot be read or traced by the command (not dumpable).
 */
export async function launchGated(rules: GateRules, mode: Pick<GatePlan, "level" | "offline">, argv: readonly string[], cwd: string, env: Record<string, string>): Promise<never> {
  const arch = currentArch();
  if (!arch) throw new Error(`no seccomp filter for ${process.arch}`);
  const c = libc();
  c.prctl(PR_SET_DUMPABLE, 0n, 0n, 0n, 0n);
  const toGate = new Int32Array(2);
  const fromGate = new Int32Array(2);
  if (c.pipe2(ptr(toGate), 0o2000000) !== 0 || c.pipe2(ptr(fromGate), 0o2000000) !== 0) throw new Error("pipe2 failed");
  const child = Bun.spawn([...shiroSelf(), GATE_EXEC, `--${mode.level}`, ...(mode.offline ? ["--offline"] : []), "--", ...argv], { cwd, env, stdio: ["inherit", "inherit", "inherit", toGate[1]!, fromGate[0]!] });
  sys("umask", 0); // once the command has its own: what the gate makes for it takes the command's umask, applied by the gate
  close(toGate[1]!);
  close(fromGate[0]!);
  const word = new Int32Array(1);
  if (c.read(toGate[0]!, ptr(word), 4) === 4) {
    const pidfd = sys("pidfd_open", child.pid, 0);
    const listener = pidfd < 0 ? -1 : sys("pidfd_getfd", pidfd, word[0]!, 0);
    if (listener < 0) {
      child.kill("SIGKILL");
      throw new Error(`could not take the filter from the command (errno ${errno()})`);
    }
    c.write(fromGate[1]!, ptr(word), 4);
    close(toGate[0]!);
    close(fromGate[1]!);
    supervise(arch, listener, pidfd, rules);
  }
  const code = await child.exited;
  const signal = child.signalCode;
  process.exit(signal === null ? code : 128 + (typeof signal === "number" ? signal : constants.signals[signal]));
}
