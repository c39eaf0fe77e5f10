import { readFileSync } from "node:fs";
import { execve } from "./gate/gate-exec.ts";
import { gateRules, launchGated, type GatePlan } from "./gate/launch-gated.ts";
import { dropCapabilities, limitProcesses, restrictSelf } from "./landlock-syscalls.ts";
import { privateHomeEnv, type PrivateHome } from "./private-home.ts";

/** What the launcher is handed on fd 4: the ruleset (rights as decimal strings: JSON has no 64-bit integers), and the command. */
export type LandlockPlan = {
  abi: number;
  handledFs: string;
  handledNet: string;
  scoped: string;
  rules: { path: string; access: string }[];
  argv: string[];
  /** Set over the environment the launcher was started with (the private TMPDIR, the person's git identity). */
  setenv: Record<string, string>;
  cwd: string;
  /** How many more processes the command may have than the user has now (without a pids cgroup: any user but root). */
  maxProcs?: number;
  /** The person's home, hidden: the command gets a private one (private-home.ts). */
  home?: PrivateHome;
  /** Run the command behind the gate (gate/): what it keeps unreadable and read-only in a writable project. */
  gate?: GatePlan;
};

// Checked by hand, not with zod: this runs before every command under Landlock, and loading zod is most of its start.
const isRights = (v: unknown): v is string => typeof v === "string" && /^\d+$/.test(v);
const isText = (v: unknown): v is string => typeof v === "string" && v !== "";
function planOf(raw: unknown): LandlockPlan {
  const p = raw as Partial<LandlockPlan> | null;
  const bad = (field: string) => new Error(`its plan on fd 4 is not valid at ${field}`);
  if (typeof p !== "object" || p === null) throw bad("the top");
  if (!Number.isInteger(p.abi) || p.abi! < 1) throw bad("abi");
  for (const field of ["handledFs", "handledNet", "scoped"] as const) if (!isRights(p[field])) throw bad(field);
  if (!Array.isArray(p.rules) || !p.rules.every((r) => isText(r?.path) && isRights(r?.access))) throw bad("rules");
  if (!Array.isArray(p.argv) || p.argv.length === 0 || !p.argv.every(isText)) throw bad("argv");
  if (typeof p.setenv !== "object" || p.setenv === null || !Object.values(p.setenv).every((v) => typeof v === "string")) throw bad("setenv");
  if (!isText(p.cwd)) throw bad("cwd");
  if (p.maxProcs !== undefined && !(Number.isInteger(p.maxProcs) && p.maxProcs > 0)) throw bad("maxProcs");
  const paths = (v: unknown) => Array.isArray(v) && v.every(isText);
  if (p.home !== undefined && !(isText(p.home?.real) && isText(p.home?.private) && paths(p.home?.shown) && paths(p.home?.kept))) throw bad("home");
  const g = p.gate;
  if (g !== undefined && !(paths(g?.secrets) && paths(g?.masked) && paths(g?.readOnly) && paths(g?.sockets) && isText(g?.shm) && typeof g?.offline === "boolean" && (g?.level === "read-only" || g?.level === "workspace-write"))) throw bad("gate");
  return p as LandlockPlan;
}

/** The hidden subcommand's name: `shiro __landlock` (never typed by a person). */
export const LAUNCHER = "__landlock";

/**
 * `shiro __landlock`: shiro re-executed as the sandbox's launcher. It reads its plan from fd 4 (not the
 * command line: /proc would show it), drops every capability, restricts itself to the ruleset and
 * `execve`s the command, which so starts inside the domain — or, with a gate, starts it behind the
 * gate and answers its watched calls. Any failure ends it with exit 126 and one line, before the command runs.
 */
export async function landlockLaunch(): Promise<never> {
  try {
    const plan = planOf(JSON.parse(readFileSync(4, "utf8")));
    const rules = plan.gate && gateRules(plan.gate, plan.abi);
    process.chdir(plan.cwd);
    dropCapabilities();
    if (plan.maxProcs) limitProcesses(plan.maxProcs);
    restrictSelf(plan.abi, {
      handledFs: BigInt(plan.handledFs),
      handledNet: BigInt(plan.handledNet),
      scoped: BigInt(plan.scoped),
      rules: plan.rules.map((r) => ({ path: r.path, access: BigInt(r.access) })),
    });
    const given = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    const env = { ...(plan.home ? privateHomeEnv(given, plan.home) : given), ...plan.setenv };
    if (rules) return await launchGated(rules, plan.gate!, plan.argv, plan.cwd, env);
    execve(plan.argv, env);
  } catch (err) {
    process.stderr.write(`shiro: the Landlock sandbox could not start the command: ${(err as Error).message.split("\n")[0]}\n`);
    process.exit(126);
  }
}
