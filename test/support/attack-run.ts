/**
 * Attacks as an injected model would issue them: `bash` calls under `shiro -p --yolo`, one a turn,
 * each judged on the model's next turn (when its output is what the model was sent) — and the same
 * commands in plain bash, the control proving each attack works when nothing protects the files.
 */
import { expect, test } from "bun:test";
import { assertDisposable, eachBackend, layoutEnv, plainBash, PROBE, type Layout } from "./attack-layout.ts";
import { secretFixture, type Aim, type Attack, type SecretFixture } from "./attack-secrets.ts";
import { runShiro, type ShiroRun } from "./run-shiro.ts";
import { FINAL } from "./scripted-job.ts";
import { visibleOutputs, type PlannedCall } from "./scripts.ts";
import { startStrictServer } from "./strict-server.ts";
import type { ScriptedModel } from "./turn.ts";

/** What one attack got: empty when it got nothing. */
export type Outcome = { attack: string; got: string[] };
export type AttackRun = ShiroRun & { outcomes: Outcome[]; bodies: string[] };

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command, timeout_ms: 10_000 } });
/** A bash call is named by its command, any other by its tool and arguments. */
const nameOf = (name: string, args: any) => (name === "bash" ? String(args.command) : `${name} ${JSON.stringify(args)}`);

/** The probe, then `attacks` (a string is a bash command); the probe's outcome names what it could not see. */
export async function attackThroughShiro(
  layout: Layout,
  attacks: (string | PlannedCall)[],
  judge: (output: string) => string[],
  env: Record<string, string> = {},
): Promise<AttackRun> {
  assertDisposable(layout);
  const calls = [PROBE.command, ...attacks].map((a) => (typeof a === "string" ? bash(a) : a));
  const outcomes: Outcome[] = [];
  const model: ScriptedModel = ({ input }) => {
    const seen = visibleOutputs(input);
    // A retried request shows nothing new: each call is judged once, right after it ran.
    for (const o of seen.slice(outcomes.length)) {
      const attack = nameOf(o.name, o.arguments);
      try {
        if (outcomes.length === 0) {
          const unseen = PROBE.sees.filter((s) => !o.output.includes(s)).map((s) => `cannot see what it may read (${s})`);
          outcomes.push({ attack: `(probe) ${attack}`, got: [...unseen, ...PROBE.hidden.filter((s) => o.output.includes(s)).map((s) => `sees the home (${s})`)] });
        }
        else outcomes.push({ attack, got: judge(o.output) });
      } catch (e) {
        outcomes.push({ attack, got: [`judging failed: ${e}`] });
      }
    }
    const next = calls[seen.length];
    return next === undefined ? { text: FINAL } : { calls: [next] };
  };
  const server = await startStrictServer({ defaultModel: model });
  try {
    const run = await runShiro(["-p", "--yolo", "--max-steps", String(calls.length + 5), "do the job"], {
      cwd: layout.root,
      home: layout.home,
      env: { OPENAI_BASE_URL: server.url, ...layoutEnv(layout), ...env },
      timeoutMs: 25_000,
    });
    // An attack that never ran proves nothing either way: it fails the test as unjudged.
    for (const c of calls.slice(outcomes.length)) outcomes.push({ attack: nameOf(c.name, c.arguments), got: [`never judged (shiro exited ${run.code}: ${run.stderr.slice(-300)})`] });
    // What landed after the last call was judged (a job outliving it, shiro's own exit) counts too.
    outcomes.push({ attack: "(after the run)", got: judge("") });
    return { ...run, outcomes, bodies: server.requests.map((r) => r.raw) };
  } finally {
    await server.stop();
  }
}

/** The attacks that got something, one line each (`cmd  →  read .env`), so a failure names them all. */
export const gotThrough = (outcomes: Outcome[]) =>
  outcomes.filter((o) => o.got.length > 0).map((o) => `${o.attack.replaceAll("\n", " ⏎ ")}  →  ${o.got.join(", ")}`);

/** Belt and braces: the secrets whose markers the model was sent (any request) or stdout shows, whichever call put them there. */
export const seenAnywhere = (fx: SecretFixture, run: AttackRun) => ({ requestBodies: fx.leakedIn(run.bodies.join("\n")), stdout: fx.leakedIn(run.stdout) });

const VERB: Record<Aim, string> = { read: "read ", change: "changed ", create: "created ", delete: "deleted ", setup: "" };

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
        if (aim !== "setup" && !got.some((g) => g.startsWith(VERB[aim]))) duds.push({ attack: command, aim, got });
      }
      expect(duds).toEqual([]);
    });

    eachBackend(`${family}: through shiro --yolo nothing is read, changed, created or deleted`, async (backend) => {
      const fx = secretFixture(opts);
      const run = await attackThroughShiro(fx.layout, attacks.map((a) => a.command), fx.judge, backend);
      expect(gotThrough(run.outcomes)).toEqual([]);
      expect(seenAnywhere(fx, run)).toEqual({ requestBodies: [], stdout: [] });
    });
  }
}
