/**
 * Secrets in the environment, through the compiled binary against the strict server: a command never
 * sees OPENAI_API_KEY or a secret variable (tool-env.ts), and the key's value, read from a file by a tool or
 * however else a tool turns it up, reaches no request, no output and no file under SHIRO_HOME — the model
 * reads `[redacted OPENAI_API_KEY]` instead. What the person gives (the prompt, stdin, an @file) is sent as given.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { filesContaining } from "../../support/files-containing.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import { sequenceModel, visibleOutputs, type PlannedCall } from "../../support/scripts.ts";
import { startStrictServer, type RecordedRequest } from "../../support/strict-server.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", Bun.which("bwrap") !== null);

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const distinct = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;
const MARKER = "[redacted OPENAI_API_KEY]";

/** A project and its own SHIRO_HOME (kept after the run, to be swept). */
function setUp(files: Record<string, string> = {}) {
  const cwd = tempDir("secrets-proj");
  const home = tempDir("secrets-home");
  for (const [path, content] of Object.entries(files)) writeFileSync(join(cwd, path), content);
  return { cwd, home };
}

type Seen = { requests: RecordedRequest[]; stdout: string; stderr: string };

/** The value is in no request body, neither stdout nor stderr, and no file under SHIRO_HOME (which holds the session). */
function expectNowhere(run: Seen, home: string, value: string) {
  expect(run.requests.length).toBeGreaterThan(0);
  expect(run.requests.filter((r) => r.raw.includes(value)).map((r) => r.path)).toEqual([]);
  expect(run.stdout).not.toContain(value);
  expect(run.stderr).not.toContain(value);
  expect(readdirSync(join(home, "sessions")).length).toBeGreaterThan(0);
  expect(filesContaining(home, value)).toEqual([]);
}

const jsonEvents = (stdout: string): any[] => stdout.trim().split("\n").map((line) => JSON.parse(line));

describe("secrets in the environment, end to end", () => {
  test("env, printenv, echo, /proc/self/environ and a nested shell show no key; an ordinary variable still reaches the command", async () => {
    const key = distinct("sk-test-");
    const token = distinct("ghp_test");
    const { cwd, home } = setUp();
    // Issue 30: commands get the environment less its secrets; MY_SETTING's name and value say nothing secret.
    const calls = [
      "env",
      "printenv",
      "printenv OPENAI_API_KEY",
      "echo $OPENAI_API_KEY",
      'echo "key=[$OPENAI_API_KEY] token=[$GITHUB_TOKEN] setting=[$MY_SETTING]"',
      "cat /proc/self/environ",
      "bash -c 'echo $GITHUB_TOKEN'",
    ].map(bash);
    const job = await scriptedJob(calls, { cwd, home, args: ["--yolo", "--json"], env: { OPENAI_API_KEY: key, GITHUB_TOKEN: token, MY_SETTING: "abc" } });

    expect(job.code).toBe(0);
    expect(job.outputs).toHaveLength(calls.length);
    expect(outputOf(job, "bash", (a) => a.command === "env")).toContain("MY_SETTING=abc");
    expect(outputOf(job, "bash", (a) => a.command.startsWith("echo \"key="))).toStartWith("key=[] token=[] setting=[abc]");
    for (const value of [key, token]) expectNowhere(job, home, value);
  });

  test("the parent's environment read by path (/proc/$PPID/environ): in the sandbox shiro's process is not even visible; without it the key is redacted", async () => {
    const key = distinct("sk-test-");
    const { cwd, home } = setUp();
    const read = bash("tr '\\0' '\\n' < /proc/$PPID/environ");
    const outside = await scriptedJob([read], { cwd, home, args: ["--yolo", "--json", "--sandbox", "off"], env: { OPENAI_API_KEY: key } });
    expect(outside.code).toBe(0);
    expect(outside.outputs[0]!.output).toContain(`OPENAI_API_KEY=${MARKER}`);
    expectNowhere(outside, home, key);
    if (!hasBwrap) return;
    const inside = await scriptedJob([read], { cwd, home, args: ["--yolo", "--json"], env: { OPENAI_API_KEY: key } });
    expect(inside.code).toBe(0);
    expect(inside.outputs[0]!.output).not.toContain("OPENAI_API_KEY");
    expectNowhere(inside, home, key);
  });

  test("a project file holding the key, read with read_file, cat and grep: the model reads the redaction", async () => {
    const key = distinct("sk-test-");
    const { cwd, home } = setUp({ "settings.txt": `provider = openai\napi_key = ${key}\n` });
    const calls = [{ name: "read_file", arguments: { path: "settings.txt" } }, bash("cat settings.txt"), { name: "grep", arguments: { pattern: "api_key" } }];
    const job = await scriptedJob(calls, { cwd, home, args: ["--yolo", "--json"], env: { OPENAI_API_KEY: key } });

    expect(job.code).toBe(0);
    expect(job.outputs.map((o) => o.output.includes(`api_key = ${MARKER}`))).toEqual([true, true, true]);
    expectNowhere(job, home, key);
  });

  test("piped input and an @file mention are the person's: they reach the model as written; the same file read by a tool comes back redacted", async () => {
    const key = distinct("sk-test-");
    const { cwd, home } = setUp({ "notes.txt": `the key is ${key}\n` });
    const server = await startStrictServer({ defaultModel: sequenceModel([bash("cat notes.txt")], "read it") });
    try {
      const run = await runShiro(["-p", "--json", "--yolo", "look at @notes.txt and this log:"], {
        cwd,
        home,
        stdin: `error: bad key ${key}\n`,
        env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: key },
      });

      expect(run.code).toBe(0);
      // Issue 30: what the person gives is theirs to send (it used to arrive as the redaction marker).
      const typed = server.requests[0]!.body.input[0].content[0].text;
      expect(typed).toContain(`<file path="notes.txt">\nthe key is ${key}\n`);
      expect(typed).toContain(`error: bad key ${key}`);
      // What a command printed of the same file is a tool's output: redacted.
      const cat = visibleOutputs(server.requests[1]!.body.input).find((o) => o.name === "bash")!.output;
      expect(cat).toStartWith(`the key is ${MARKER}`);
      expect(cat).not.toContain(key);
    } finally {
      await server.stop();
    }
  });

  test("a value streamed in two chunks never shows in the tool-output events", async () => {
    const key = distinct("sk-test-");
    const { cwd, home } = setUp();
    const command = `printf 'start ${key.slice(0, 5)}'; sleep 0.3; printf '${key.slice(5)} end\\n'`;
    const job = await scriptedJob([bash(command)], { cwd, home, args: ["--yolo", "--json"], env: { OPENAI_API_KEY: key } });

    expect(job.code).toBe(0);
    const streamed = jsonEvents(job.stdout).filter((e) => e.type === "tool-output").map((e) => e.chunk).join("");
    expect(streamed).toBe(`start ${MARKER} end\n`);
    expect(job.outputs[0]!.output).toStartWith(`start ${MARKER} end`);
    expectNowhere(job, home, key);
  });
});

describe("env.pass in config.json", () => {
  test("lets a named secret through to commands (what they print of it still redacted); an unnamed secret stays out, an ordinary variable passes", async () => {
    const { cwd, home } = setUp();
    writeFileSync(join(home, "config.json"), JSON.stringify({ env: { pass: ["NPM_TOKEN"] } }));
    const npm = distinct("npm_test");
    const deploy = distinct("deploy-");
    const job = await scriptedJob([bash('echo "npm=[$NPM_TOKEN] deploy=[$DEPLOY_TOKEN] setting=[$MY_SETTING]"; echo "${#NPM_TOKEN}"')], {
      cwd,
      home,
      args: ["--yolo"],
      env: { NPM_TOKEN: npm, DEPLOY_TOKEN: deploy, MY_SETTING: "abc" },
    });

    expect(job.code).toBe(0);
    // The command had the token (its length is printed); the model reads only the marker.
    expect(job.outputs[0]!.output).toStartWith(`npm=[[redacted NPM_TOKEN]] deploy=[] setting=[abc]\n${npm.length}\n`);
    expectNowhere(job, home, deploy);
    expectNowhere(job, home, npm);
  });

  test("listing OPENAI_API_KEY is a configuration error naming the field: exit 2, one line, no model call", async () => {
    const home = tempDir("secrets-home");
    writeFileSync(join(home, "config.json"), JSON.stringify({ env: { pass: ["OPENAI_API_KEY"] } }));
    const r = await runShiro(["-p", "hi"], { cwd: tempDir("secrets-proj"), home, env: { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" } });

    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("env.pass");
    expect(r.stderr).toContain("OPENAI_API_KEY");
  });
});
