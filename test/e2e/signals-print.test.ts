import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../support/binary.ts";
import { CANARY_MS, GROUP_COMMAND, groupMembers, waitForGroup } from "../support/process-group.ts";
import { spawnPty } from "../support/pty.ts";
import { tempDir } from "../support/run-shiro.ts";
import { sequenceModel } from "../support/scripts.ts";
import { callsIn, loadAll, resultsOf } from "../support/session-runs.ts";
import { startStrictServer, type StrictServer } from "../support/strict-server.ts";

// What a CI runner's timeout (SIGTERM), a closed terminal (SIGHUP) and kill -9 do to print mode while
// its bash command runs: nothing of the command may live on, and the session must hold the run.
const onLinux = describe.skipIf(process.platform !== "linux");
const LINUX_ONLY = "Linux only: finding a process group's members reads /proc";

let server: StrictServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": sequenceModel([{ name: "bash", arguments: { command: GROUP_COMMAND } }], "done") } });
});
afterAll(() => {
  server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project() {
  const [cwd, home] = [tempDir("sigproj"), tempDir("sighome")];
  dirs.push(cwd, home);
  const env = { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "test-key-not-a-secret", OPENAI_BASE_URL: server.url, NO_COLOR: "1" };
  return { cwd, home, env };
}

/** Starts `shiro -p --yolo` on the command and waits until the command runs; returns its group. */
async function startCommand(extra: string[] = []) {
  const { cwd, home, env } = project();
  const proc = Bun.spawn([BINARY, "-p", "--yolo", ...extra, "run the command"], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const pgid = await waitForGroup(join(cwd, "pgid"));
  const startedAt = Date.now();
  expect(groupMembers(pgid).length).toBeGreaterThan(0);
  return { cwd, home, proc, output, pgid, startedAt };
}

/** A second after shiro is gone, nothing of the group lives; past the command's sleep, no canary. */
async function expectCommandGone(run: { cwd: string; pgid: number; startedAt: number }) {
  await Bun.sleep(1000);
  expect(groupMembers(run.pgid)).toEqual([]);
  await Bun.sleep(Math.max(0, run.startedAt + CANARY_MS + 300 - Date.now()));
  expect(existsSync(join(run.cwd, "canary"))).toBe(false);
}

/** The one session file holds the run: the prompt, the bash call and its result saying it was killed. */
async function expectRunSaved(home: string) {
  const sessions = await loadAll(home);
  expect(sessions).toHaveLength(1);
  const [call] = callsIn(sessions[0]!);
  expect(JSON.parse(call!.arguments).command).toBe(GROUP_COMMAND);
  expect(resultsOf(sessions[0]!).get(call!.callId)).toContain("every process it started were killed");
}

onLinux(LINUX_ONLY, () => {
  for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
    test.concurrent(`${signal} during a bash command: exit ${code}, the command's whole group is gone, the session is saved`, async () => {
      const run = await startCommand();
      run.proc.kill(signal);
      expect(await run.proc.exited).toBe(code);
      const [stdout, stderr] = await run.output;
      expect(stdout).toBe("");
      expect(stderr).toEndWith(`\n! stopped by ${signal}; the session is saved (continue it with shiro -c)\n`);
      await expectCommandGone(run);
      await expectRunSaved(run.home);
    });
  }

  test.concurrent("--json, SIGTERM: the result line says aborted and names the signal, exit 143", async () => {
    const run = await startCommand(["--json"]);
    run.proc.kill("SIGTERM");
    expect(await run.proc.exited).toBe(143);
    const [stdout, stderr] = await run.output;
    expect(JSON.parse(stdout.trimEnd().split("\n").at(-1)!)).toMatchObject({ type: "result", status: "aborted", signal: "SIGTERM" });
    expect(stderr).toBe("");
  });

  test.concurrent("kill -9 of shiro during a bash command: the lifeline kills the command's whole group", async () => {
    const run = await startCommand();
    run.proc.kill("SIGKILL");
    expect(await run.proc.exited).toBe(137);
    await expectCommandGone(run);
  });

  test.concurrent("print mode in a terminal that closes: exit 129 although stderr is gone, nothing of the command left, the session saved", async () => {
    const { cwd, home, env } = project();
    const pty = spawnPty([BINARY, "-p", "--yolo", "run the command"], { cwd, env });
    const pgid = await waitForGroup(join(cwd, "pgid"));
    const startedAt = Date.now();
    pty.hangUp();
    expect(await pty.exited).toBe(129);
    await expectCommandGone({ cwd, pgid, startedAt });
    await expectRunSaved(home);
  });
});
