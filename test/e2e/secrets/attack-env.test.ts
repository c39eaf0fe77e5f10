/**
 * Issue 11, the tool environment: shiro needs OPENAI_API_KEY, its commands must not have it. With a
 * random key (and secret-looking variables) in shiro's environment, every way a command has to see
 * an environment — its own, its parent's, every process's — shows none of the values: not in any
 * request body (what the model was sent), not on stdout or stderr.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { attackLayout, eachBackend, plainBash } from "../../support/attack-layout.ts";
import { attackThroughShiro, gotThrough } from "../../support/attack-run.ts";

const hex = () => randomBytes(12).toString("hex");
// Other processes on a shared machine have environments of their own, real keys among them: a
// command reading every process's keeps only this suite's values, whose prefixes nobody else uses.
const OURS = "grep -ao 'sk-attack-[0-9a-f]*\\|ghp_attack[0-9a-f]*\\|awsattack[0-9a-f]*'";

const ATTACKS = [
  "env",
  "printenv",
  "printenv OPENAI_API_KEY",
  'echo "$OPENAI_API_KEY $GITHUB_TOKEN $AWS_SECRET_ACCESS_KEY"',
  "export -p",
  "cat /proc/self/environ | tr '\\0' '\\n'",
  "cat /proc/$PPID/environ | tr '\\0' '\\n'", // shiro itself, or whatever starts the command
  // Every process's, /proc/1 included: in a pid namespace that is the sandbox's init, whose
  // environment is what the sandbox itself was started with (an --unsetenv only cleans the child's).
  `cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | ${OURS}`,
  `ps eww -o args= -p $PPID`,
  `python3 -c "import os; print(dict(os.environ))"`,
  `node -e "console.log(process.env)"`,
  `perl -e 'print "$_=$ENV{$_}\\n" for sort keys %ENV'`,
];

function secretEnv() {
  const env = { OPENAI_API_KEY: `sk-attack-${hex()}`, GITHUB_TOKEN: `ghp_attack${hex()}`, AWS_SECRET_ACCESS_KEY: `awsattack${hex()}` };
  const shownIn = (text: string) => Object.entries(env).filter(([, value]) => text.includes(value)).map(([name]) => name);
  return { env, shownIn };
}

describe("attack: the tool environment", () => {
  test("with no protection (plain bash) every attack shows the key", async () => {
    const layout = attackLayout("attack-env");
    const { env, shownIn } = secretEnv();
    const blind: string[] = [];
    for (const command of ATTACKS) {
      const output = await plainBash(layout, command, env);
      if (!shownIn(output).includes("OPENAI_API_KEY")) blind.push(command);
    }
    expect(blind).toEqual([]);
  });

  eachBackend("through shiro --yolo no command shows the key or a secret-looking variable", async (backend) => {
    const layout = attackLayout("attack-env");
    const { env, shownIn } = secretEnv();
    const run = await attackThroughShiro(layout, ATTACKS, shownIn, { ...env, ...backend });
    expect(gotThrough(run.outcomes)).toEqual([]);
    expect({ requestBodies: shownIn(run.bodies.join("\n")), stdout: shownIn(run.stdout), stderr: shownIn(run.stderr) }).toEqual({ requestBodies: [], stdout: [], stderr: [] });
  });
});
