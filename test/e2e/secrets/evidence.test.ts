/**
 * Issue 30, through the compiled binary and the strict server, on both sandbox backends: a command
 * gets what a CI build reads and sees it as it is — NODE_OPTIONS, JAVA_OPTS, CC, PYTHONPATH, CI and
 * the runner's GITHUB_* / RUNNER_* (which came back `[redacted …]` from `git log` and `echo`) — while
 * every secret of the same environment (GITHUB_TOKEN, the Actions tokens, NPM_TOKEN, AWS, Stripe, a
 * database password, the API key, a variable holding a GitHub token), a token pasted into a project
 * file and the one actions/checkout leaves in .git/config reach no request, whatever reads them. The honest values are the control, in the same runs.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../../support/guard-projects.ts";
import { simulationHolds } from "../../support/no-userns.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { RUNNER_BACKENDS } from "../../support/runner-backends.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const readFile = (path: string): PlannedCall => ({ name: "read_file", arguments: { path } });
const alnum = (n: number) => randomBytes(n * 2).toString("base64").replace(/[^A-Za-z0-9]/g, "").slice(0, n);

/** A project in git (its HEAD is the run's GITHUB_SHA), a runner's temp folder, and what the runner's environment holds. */
function runner() {
  const cwd = tempDir("evidence-ws");
  const temp = tempDir("evidence-runner-temp");
  writeFileSync(join(cwd, "package.json"), JSON.stringify({ scripts: { build: "NODE_OPTIONS=--max-old-space-size=4096 node build.js" } }, null, 2) + "\n");
  const pasted = `ghp_${alnum(36)}`;
  writeFileSync(join(cwd, "notes.txt"), `deploy notes\nthe old token was ${pasted} (revoked?)\nship it on friday\n`);
  git(cwd, "init", "-q");
  git(cwd, "add", "-A");
  git(cwd, "commit", "-q", "-m", "round money to cents");
  // What actions/checkout leaves in .git/config: the job's token, base64-encoded in a header.
  const checkout = `ghs_${alnum(36)}`;
  const header = Buffer.from(`x-access-token:${checkout}`).toString("base64");
  git(cwd, "config", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${header}`);
  mkdirSync(join(temp, "_github_workflow"));
  const honest = {
    NODE_OPTIONS: "--max-old-space-size=4096",
    JAVA_OPTS: "-Xmx2g -Dfile.encoding=UTF-8",
    CC: "gcc-13",
    PYTHONPATH: "/opt/lib/python3.12/site-packages",
    CI: "true",
    GITHUB_SHA: git(cwd, "rev-parse", "HEAD"),
    GITHUB_REPOSITORY: "acme/payments-api",
    GITHUB_HEAD_REF: "fix/round-0.1+0.2",
    GITHUB_REF: "refs/pull/1234/merge",
    GITHUB_WORKSPACE: cwd,
    GITHUB_EVENT_PATH: join(temp, "_github_workflow", "event.json"),
    RUNNER_OS: "Linux",
    RUNNER_TEMP: temp,
  };
  const secrets = {
    GITHUB_TOKEN: `ghs_${alnum(36)}`,
    ACTIONS_RUNTIME_TOKEN: `rt${alnum(30)}`,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: `idt${alnum(30)}`,
    NPM_TOKEN: `npm_${alnum(36)}`,
    AWS_SECRET_ACCESS_KEY: `${alnum(20)}/${alnum(19)}`,
    STRIPE_KEY_LIVE: `sk_live_${alnum(24)}`,
    DATABASE_URL: `postgres://app:${alnum(20)}@db.internal:5432/app`,
    OPENAI_API_KEY: `sk-proj-${alnum(40)}`,
    DEPLOY_THING: `ghp_${alnum(36)}`,
  };
  // What must reach no request: each value, the database's password alone, the pasted token.
  const hidden = { ...secrets, DATABASE_URL: secrets.DATABASE_URL.split(":")[2]!.split("@")[0]!, "notes.txt": pasted, "checkout token": checkout, "checkout header": header };
  return { cwd, honest, secrets, hidden, pasted };
}

describe("a CI runner's environment: builds get what they read, secrets reach nobody", () => {
  for (const backend of RUNNER_BACKENDS)
    test.skipIf(!backend.runs)(`echo, env, git log, read_file and cat, unapproved in print mode (${backend.name})`, async () => {
      if (backend.wrap.length) expect(simulationHolds()).toBeUndefined();
      const r = runner();
      const names = Object.keys(r.honest);
      const calls = [
        bash(`printf '%s\\n' ${names.map((n) => `"$${n}"`).join(" ")}`),
        bash("git log -1 --format='%H %s'"),
        readFile("package.json"),
        bash("env"),
        bash("printenv GITHUB_TOKEN NPM_TOKEN ACTIONS_RUNTIME_TOKEN; echo \"[$DEPLOY_THING] [$DATABASE_URL] [$OPENAI_API_KEY]\""),
        bash("cat notes.txt"),
        readFile("notes.txt"),
        bash("cat .git/config"),
      ];
      const job = await scriptedJob(calls, { cwd: r.cwd, args: ["--json"], env: { ...r.honest, ...r.secrets }, wrap: backend.wrap });
      expect(job.code).toBe(0);
      expect(job.outputs).toHaveLength(calls.length);

      // The control: every honest value, as set, in what the model reads.
      expect(outputOf(job, "bash", (a) => a.command.startsWith("printf"))).toStartWith(names.map((n) => r.honest[n as keyof typeof r.honest]).join("\n") + "\n");
      expect(outputOf(job, "bash", (a) => a.command.startsWith("git log"))).toStartWith(`${r.honest.GITHUB_SHA} round money to cents\n`);
      expect(outputOf(job, "read_file", (a) => a.path === "package.json")).toContain('"build": "NODE_OPTIONS=--max-old-space-size=4096 node build.js"');
      const env = outputOf(job, "bash", (a) => a.command === "env");
      for (const [name, value] of Object.entries(r.honest)) expect(env).toContain(`${name}=${value}\n`);
      expect(Object.keys(r.secrets).filter((name) => env.includes(`${name}=`))).toEqual([]);
      expect(outputOf(job, "bash", (a) => a.command.startsWith("printenv"))).toStartWith("[] [] []\n");
      // The pasted token is gone from the file's text, the rest of it is there, by cat and by read_file.
      for (const shown of [outputOf(job, "bash", (a) => a.command === "cat notes.txt"), outputOf(job, "read_file", (a) => a.path === "notes.txt")]) {
        expect(shown).toContain("deploy notes");
        expect(shown).toContain("the old token was [redacted GitHub token] (revoked?)");
        expect(shown).toContain("ship it on friday");
      }

      // The checkout's header is shown redacted, the rest of the config as it is.
      const config = outputOf(job, "bash", (a) => a.command === "cat .git/config");
      expect(config).toContain("[core]");
      expect(config).toContain("extraheader = AUTHORIZATION: basic [redacted .git/config]");

      // No secret in the raw bytes of any request, nor in what shiro printed.
      const leaked = (text: string) => Object.entries(r.hidden).filter(([, value]) => text.includes(value)).map(([name]) => name);
      expect({ requests: job.requests.flatMap((q) => leaked(q.raw)), stdout: leaked(job.stdout), stderr: leaked(job.stderr) }).toEqual({ requests: [], stdout: [], stderr: [] });
    });
});
