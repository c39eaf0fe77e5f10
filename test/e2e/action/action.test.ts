/**
 * The GitHub Action's script (action/run.sh) run here as a runner would run it: the locally built
 * binary published in a fake release folder served on loopback, checked against its SHA256SUMS, run
 * against the strict server, its answer, exit code and cost handed back through $GITHUB_OUTPUT. A
 * checksum that does not match stops it before anything runs. action.yml is checked to feed the
 * script the inputs it reads and to expose the outputs it writes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACTION_SCRIPT, HOST_ASSET, publishRelease, runActionStep, serveReleases } from "../../support/action-run.ts";
import { REPO } from "../../support/binary.ts";
import { NO_USERNS, simulationHolds } from "../../support/no-userns.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const ASSET = HOST_ASSET;
// A runner of another OS than this one: the fake release has no binary for it.
const OTHER_OS: [string, string] = process.platform === "darwin" ? ["Linux", "linux"] : ["macOS", "darwin"];
const SCHEMA = { type: "object", properties: { verdict: { enum: ["pass", "fail"] }, echoed: { type: "string" } }, required: ["verdict", "echoed"], additionalProperties: false };

// Reads the report, runs one command, and answers in the schema from what it saw.
const gate = sequenceModel(
  [{ name: "read_file", arguments: { path: "report.txt" } }, { name: "bash", arguments: { command: "echo hi there" } }],
  (input) => {
    const seen = (name: string) => visibleOutputs(input).find((o) => o.name === name)?.output ?? "";
    return JSON.stringify({ verdict: seen("read_file").includes("FAIL") ? "fail" : "pass", echoed: seen("bash").split("\n")[0]! });
  },
);

let api: StrictServer;
let releases: ReturnType<typeof serveReleases>;
const releaseRoot = tempDir("releases");

beforeAll(async () => {
  api = await startStrictServer({ models: { "gpt-5": gate } });
  publishRelease(releaseRoot, "good");
  publishRelease(releaseRoot, "tampered", (hash) => `${hash.replace(/^./, (c) => (c === "0" ? "1" : "0"))}  ${ASSET}`);
  // Only loopback: the release is served the way GitHub serves one, from a URL.
  releases = serveReleases(releaseRoot);
});
afterAll(async () => {
  await api.stop();
  releases.stop();
});

async function runAction(inputs: Record<string, string>, env: Record<string, string> = {}, wrap: readonly string[] = [], runnerTemp?: string) {
  const cwd = tempDir("action-ws");
  writeFileSync(join(cwd, "report.txt"), "ok   parses dates\nFAIL rounds money\n");
  writeFileSync(join(cwd, "verdict.schema.json"), JSON.stringify(SCHEMA));
  const before = api.requests.length;
  const r = await runActionStep({ cwd, inputs: { "release-url": releases.url("good"), ...inputs }, env: { OPENAI_BASE_URL: api.url, ...env }, wrap, runnerTemp });
  return { ...r, requests: api.requests.slice(before) };
}

describe.skipIf(!Bun.which("curl"))("action/run.sh, end to end", () => {
  test("on a runner that refuses bwrap its namespaces (Ubuntu 24.04, simulated): no sysctl, no flag — the command runs sandboxed under Landlock and the job passes", async () => {
    expect(simulationHolds()).toBeUndefined();
    const r = await runAction({ prompt: "Gate on report.txt", "output-schema": "verdict.schema.json", args: "-m gpt-5" }, {}, NO_USERNS);
    expect(r.code).toBe(0);
    // The command nobody approved ran, so a sandbox held it (with none, print mode denies it: exit 4, no echo).
    expect(JSON.parse(r.outputs.result!)).toEqual({ verdict: "fail", echoed: "hi there" });
  });

  test("a JSON gate: downloads and checks the binary, runs it with the inputs, hands back result, exit code and cost", async () => {
    const r = await runAction({
      prompt: "Gate on report.txt",
      "output-schema": "verdict.schema.json",
      // Quoted as in a shell: one rule with a space in it, which the command below needs (no sandbox to fall back on).
      args: `-m gpt-5 --reasoning-effort low --sandbox off --allow 'bash:echo hi *'`,
    });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(JSON.parse(r.outputs.result!)).toEqual({ verdict: "fail", echoed: "hi there" });
    expect(r.outputs["exit-code"]).toBe("0");
    const result = JSON.parse(readFileSync(r.outputs.events!, "utf8").trim().split("\n").at(-1)!);
    expect(result).toMatchObject({ type: "result", status: "done", steps: 3 });
    expect(Number(r.outputs.cost)).toBe(result.costUsd);
    expect(result.costUsd).toBeGreaterThan(0);
    expect(r.requests).toHaveLength(3);
    for (const q of r.requests) {
      expect(q.body.text.format).toMatchObject({ type: "json_schema", schema: SCHEMA, strict: true });
      expect(q.body.reasoning.effort).toBe("low");
    }
    expect(r.stdout).toContain(`shiro exited 0, cost $${r.outputs.cost}`);
    expect(readdirSync(r.shiroHome)).toEqual([]); // ephemeral unless asked otherwise
  });

  test("a run that stops early: its exit code is the step's and an output, the result is empty, the cost still counted", async () => {
    const r = await runAction({ prompt: "Gate on report.txt", args: "--max-steps 1", ephemeral: "false" });
    expect([r.code, r.outputs["exit-code"], r.outputs.result]).toEqual([3, "3", ""]);
    expect(Number(r.outputs.cost)).toBeGreaterThan(0);
    expect(readdirSync(r.shiroHome)).toContain("sessions");
  });

  test("two uses in one job (one runner temp): each keeps its own event log and answer; the first's is whole after the second ran", async () => {
    const runnerTemp = tempDir("runner-temp");
    const first = await runAction({ prompt: "Gate on report.txt", "output-schema": "verdict.schema.json", args: "--sandbox off --allow 'bash:echo hi *'" }, {}, [], runnerTemp);
    const firstLog = readFileSync(first.outputs.events!, "utf8");
    const second = await runAction({ prompt: "Gate on report.txt", args: "--max-steps 1" }, {}, [], runnerTemp);
    expect([first.code, second.code]).toEqual([0, 3]);
    expect(second.outputs.events).not.toBe(first.outputs.events);
    expect(readFileSync(first.outputs.events!, "utf8")).toBe(firstLog);
    const last = (log: string) => JSON.parse(log.trim().split("\n").at(-1)!);
    expect([last(firstLog).status, last(readFileSync(second.outputs.events!, "utf8")).status]).toEqual(["done", "max-steps"]);
    expect(JSON.parse(first.outputs.result!)).toEqual({ verdict: "fail", echoed: "hi there" });
    expect(second.outputs.result).toBe("");
  });

  test("a checksum that does not match: nothing runs, nothing is sent, no outputs, the download is removed", async () => {
    const r = await runAction({ prompt: "Gate on report.txt" }, { INPUT_RELEASE_URL: releases.url("tampered") });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^::error::shiro action: checksum mismatch for ${ASSET}: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64}; not running it\n$`));
    expect([r.requests.length, r.outputs]).toEqual([0, {}]);
    expect(existsSync(join(r.runnerTemp, "shiro-action", ASSET))).toBe(false);
  });

  test("no build for the runner, no line in SHA256SUMS, a pinned release that is not there, an args quote left open: one error line each", async () => {
    const cases: [Record<string, string>, Record<string, string>, string][] = [
      [{}, { RUNNER_OS: "Windows", RUNNER_ARCH: "ARM64" }, "no shiro build for windows-arm64 (windows is built for x64 only)"],
      [{}, { RUNNER_OS: "Linux", RUNNER_ARCH: "RISCV64" }, "no shiro build for the architecture RISCV64 (there are x64 and arm64 builds)"],
      [{}, { RUNNER_OS: OTHER_OS[0], RUNNER_ARCH: "ARM64" }, `${releases.url("good")}/SHA256SUMS has no line for shiro-${OTHER_OS[1]}-arm64`],
      // A pinned version that is not there (only `latest` falls back to building: action-source.test.ts).
      [{ version: "v9.9.9" }, { INPUT_RELEASE_URL: releases.url("v9.9.9") }, `could not download ${releases.url("v9.9.9")}/SHA256SUMS (HTTP 404)`],
      [{ args: "--allow 'bash:echo *" }, {}, "the args input does not split (a quote left open?)"],
      [{ prompt: "" }, {}, "the prompt input is empty"],
    ];
    for (const [inputs, env, said] of cases) {
      const r = await runAction({ prompt: "Gate on report.txt", ...inputs }, env);
      expect([r.code, r.requests.length]).toEqual([1, 0]);
      expect(r.stderr).toContain(`::error::shiro action: ${said}`);
    }
  });
});

test("action.yml feeds the script every input it reads and exposes every output it writes", async () => {
  const action = Bun.YAML.parse(readFileSync(join(REPO, "action.yml"), "utf8")) as any;
  const script = readFileSync(ACTION_SCRIPT, "utf8");
  const [step] = action.runs.steps;
  expect(action.runs.using).toBe("composite");
  expect(step.run).toContain("$GITHUB_ACTION_PATH/action/run.sh");
  for (const name of Object.keys(action.inputs)) {
    const variable = `INPUT_${name.toUpperCase().replaceAll("-", "_")}`;
    expect([name, step.env[variable]]).toEqual([name, `\${{ inputs.${name} }}`]);
    expect([name, script.includes(variable)]).toEqual([name, true]);
  }
  expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(["prompt", "args", "output-schema"]));
  const written = [...script.matchAll(/^output ([\w-]+) /gm)].map((m) => m[1]!);
  expect(Object.keys(action.outputs).sort()).toEqual([...written].sort());
  for (const [name, spec] of Object.entries<any>(action.outputs)) expect(spec.value).toBe(`\${{ steps.${step.id}.outputs.${name} }}`);
  expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(["result", "exit-code", "cost"]));
});
