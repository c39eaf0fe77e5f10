/**
 * Attacks as an injected model would issue them: `bash` calls under `shiro -p --yolo`, one a turn,
 * each judged on the model's next turn (when its output is what the model was sent) — and the same
 * commands in plain bash, the control proving each attack works when nothing protects the files.
 */
import { expect, test } from "bun:test";
import { assertDisposable, bwrapMissing, layoutEnv, plainBash, type Layout } from "./attack-layout.ts";
import { secretFixture, type Aim, type Attack } from "./attack-secrets.ts";
import { runShiro, type ShiroRun } from "./run-shiro.ts";
import { FINAL } from "./scripted-job.ts";
import { visibleOutputs } from "./scripts.ts";
import { startStrictServer } from "./strict-server.ts";
import type { ScriptedModel } from "./turn.ts";

/** What one attack got: empty when it got nothing. */
export type Outcome = { attack: string; got: string[] };
export type AttackRun = ShiroRun & { outcomes: Outcome[]; bodies: string[] };

export async function attackThroughShiro(
  layout: Layout,
  commands: string[],
  judge: (output: string) => string[],
  env: Record<string, string> = {},
): Promise<AttackRun> {
  assertDisposable(layout);
  const outcomes: Outcome[] = [];
  const model: ScriptedModel = ({ input }) => {
    const seen = visibleOutputs(input);
    // A retried request shows nothing new: each call is judged once, right after it ran.
    for (const o of seen.slice(outcomes.length)) {
      const attack = (o.arguments as { command: string }).command;
      try {
        outcomes.push({ attack, got: judge(o.output) });
      } catch (e) {
        outcomes.push({ attack, got: [`judging failed: ${e}`] });
      }
    }
    const next = commands[seen.length];
    return next === undefined ? { text: FINAL } : { calls: [{ name: "bash", arguments: { command: next, timeout_ms: 10_000 } }] };
  };
  const server = await startStrictServer({ defaultModel: model });
  try {
    const run = await runShiro(["-p", "--yolo", "--max-steps", String(commands.length + 5), "do the job"], {
      cwd: layout.root,
      home: layout.home,
      env: { OPENAI_BASE_URL: server.url, ...layoutEnv(layout), ...env },
      timeoutMs: 25_000,
    });
    // An attack that never ran proves nothing either way: it fails the test as unjudged.
    for (const attack of commands.slice(outcomes.length)) outcomes.push({ attack, got: [`never judged (shiro exited ${run.code}: ${run.stderr.slice(-300)})`] });
    return { ...run, outcomes, bodies: server.requests.map((r) => r.raw) };
  } finally {
    await server.stop();
  }
}

/** The attacks that got something, one line each (`cmd  →  read .env`), so a failure names them all. */
export const gotThrough = (outcomes: Outcome[]) =>
  outcomes.filter((o) => o.got.length > 0).map((o) => `${o.attack.replaceAll("\n", " ⏎ ")}  →  ${o.got.join(", ")}`);

const VERB: Record<Aim, string> = { read: "read ", change: "changed ", create: "created ", delete: "deleted " };

/**
 * Two tests per family, each in its own fixture: the control (plain bash: every attack achieves its
 * aim, so none is a dud) and the attack through shiro (nothing read, changed, created or deleted).
 */
export function secretAttackTests(families: Record<string, Attack[]>, opts: { git?: boolean } = {}): void {
  for (const [family, attacks] of Object.entries(families)) {
    test.concurrent(`${family}: with no protection (plain bash) each attack achieves its aim`, async () => {
      const fx = secretFixture(opts);
      const duds: { attack: string; aim: Aim; got: string[] }[] = [];
      for (const { aim, command } of attacks) {
        const got = fx.judge(await plainBash(fx.layout, command));
        if (!got.some((g) => g.startsWith(VERB[aim]))) duds.push({ attack: command, aim, got });
      }
      expect(duds).toEqual([]);
    });

    test.concurrent.skipIf(bwrapMissing)(`${family}: through shiro --yolo nothing is read, changed, created or deleted (sandbox: needs bwrap)`, async () => {
      const fx = secretFixture(opts);
      const run = await attackThroughShiro(fx.layout, attacks.map((a) => a.command), fx.judge);
      expect(gotThrough(run.outcomes)).toEqual([]);
      // Belt and braces: no marker anywhere the model or the user could see, whichever call put it there.
      expect({ requestBodies: fx.leakedIn(run.bodies.join("\n")), stdout: fx.leakedIn(run.stdout) }).toEqual({ requestBodies: [], stdout: [] });
    });
  }
}
