import { readFileSync } from "node:fs";
import { z } from "zod";
import { dropCapabilities, execve, restrictSelf } from "./landlock-syscalls.ts";

/** What the launcher is handed on fd 4: the ruleset (rights as decimal strings: JSON has no 64-bit integers), and the command. */
export const landlockPlanSchema = z.strictObject({
  abi: z.number().int().min(1),
  handledFs: z.string(),
  handledNet: z.string(),
  scoped: z.string(),
  rules: z.array(z.strictObject({ path: z.string().min(1), access: z.string() })),
  argv: z.array(z.string()).min(1),
  /** Set over the environment the launcher was started with (the private TMPDIR, the person's git identity). */
  setenv: z.record(z.string(), z.string()),
  cwd: z.string().min(1),
});
export type LandlockPlan = z.infer<typeof landlockPlanSchema>;

/** The hidden subcommand's name: `shiro __landlock` (never typed by a person). */
export const LAUNCHER = "__landlock";

/**
 * `shiro __landlock`: shiro re-executed as the sandbox's launcher. It reads its plan from fd 4 (not the
 * command line: /proc would show it), drops every capability, restricts itself to the ruleset and
 * `execve`s the command, which so starts inside the domain. Any failure ends it with exit 126 and one line, before the command runs.
 */
export function landlockLaunch(): never {
  try {
    const parsed = landlockPlanSchema.safeParse(JSON.parse(readFileSync(4, "utf8")));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new Error(`its plan on fd 4 is not valid at ${issue.path.join(".") || "the top"}: ${issue.message}`);
    }
    const plan = parsed.data;
    process.chdir(plan.cwd);
    dropCapabilities();
    restrictSelf(plan.abi, {
      handledFs: BigInt(plan.handledFs),
      handledNet: BigInt(plan.handledNet),
      scoped: BigInt(plan.scoped),
      rules: plan.rules.map((r) => ({ path: r.path, access: BigInt(r.access) })),
    });
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    execve(plan.argv, { ...env, ...plan.setenv });
  } catch (err) {
    process.stderr.write(`shiro: the Landlock sandbox could not start the command: ${(err as Error).message.split("\n")[0]}\n`);
    process.exit(126);
  }
}
