import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LAUNCHER, type LandlockPlan } from "./landlock-launch.ts";
import { landlockRuleset } from "./landlock-plan.ts";
import type { SandboxPolicy } from "./sandbox-policy.ts";

/** shiro itself, as the launcher: the compiled binary, or `bun src/main.ts` when run from the sources. */
const self = () => (Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, join(import.meta.dir, "../main.ts")]);

/**
 * One command under Landlock: shiro re-executed as its launcher, the plan on fd 4, a private temporary
 * folder (Landlock cannot remount /tmp: the command gets a folder of its own as TMPDIR), removed after.
 */
export function landlockCommand(policy: SandboxPolicy, argv: readonly string[], abi: number): { argv: string[]; fd4: Uint8Array; tmp: string; removeTmp: () => void } {
  const tmp = mkdtempSync(join(tmpdir(), "shiro-cmd-"));
  const ruleset = landlockRuleset(policy, abi, tmp);
  const program = argv[0]!.startsWith("/") ? argv[0]! : (Bun.which(argv[0]!) ?? argv[0]!);
  const plan: LandlockPlan = {
    abi,
    handledFs: String(ruleset.handledFs),
    handledNet: String(ruleset.handledNet),
    scoped: String(ruleset.scoped),
    rules: ruleset.rules.map((r) => ({ path: r.path, access: String(r.access) })),
    argv: [program, ...argv.slice(1)],
    setenv: { ...policy.setenv, TMPDIR: tmp },
    cwd: policy.root,
    maxProcs: policy.maxProcs,
  };
  return { argv: [...self(), LAUNCHER], fd4: new TextEncoder().encode(JSON.stringify(plan)), tmp, removeTmp: () => rmSync(tmp, { recursive: true, force: true }) };
}
