import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { CANARY_MS, GROUP_COMMAND, groupMembers, waitForGroup } from "../../support/process-group.ts";
import { spawnPty } from "../../support/pty.ts";
import { startRepl, type Repl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { callsIn, loadAll, resultsOf } from "../../support/session-runs.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { waitUntil } from "../../support/wait-until.ts";

// What a CI runner's timeout (SIGTERM), a closed terminal (SIGHUP, and every read and write failing)
// and kill -9 do to shiro while its bash command runs, in print mode and in the REPL: nothing of the
// command may live on, and the session must hold the run.
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

/** Waits until the command runs in `cwd`; returns its process group, alive. */
async function runningGroup(cwd: string) {
  const pgid = await waitForGroup(cwd);
  expect(groupMembers(pgid).length).toBeGreaterThan(0);
  return { cwd, pgid, startedAt: Date.now() };
}

/** Starts `shiro -p --yolo` on the command and waits until the command runs. */
async function startPrint(extra: string[] = []) {
  const { cwd, home, env } = project();
  const proc = Bun.spawn([BINARY, "-p", "--yolo", ...extra, "run the command"], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { home, proc, output, ...(await runningGroup(cwd)) };
}

/** Soon after shiro is gone, nothing of the group lives; past the command's sleep, no canary. */
async function expectCommandGone(run: { cwd: string; pgid: number; startedAt: number }) {
  await waitUntil(() => groupMembers(run.pgid).length === 0, `the command's process group ${run.pgid} is gone`);
  expect(groupMembers(run.pgid)).toEqual([]);
  await Bun.sleep(Math.max(0, run.startedAt + CANARY_MS + 300 - Date.now()));
  expect(existsSync(join(run.cwd, "canary"))).toBe(false);
}

/** The one session file holds the run: the prompt, the bash call and its result saying it was killed, and why. */
async function expectRunSaved(home: string, signal: "SIGTERM" | "SIGHUP") {
  const sessions = await loadAll(home);
  expect(sessions).toHaveLength(1);
  const [call] = callsIn(sessions[0]!);
  expect(JSON.parse(call!.arguments).command).toBe(GROUP_COMMAND);
  expect(resultsOf(sessions[0]!).get(call!.callId)).toEndWith(`Stopped: shiro received ${signal}; the command and every process it started were killed.`);
}

describe.skipIf(process.platform !== "linux")("Linux only: finding a process group's members reads /proc", () => {
  for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
    test.concurrent(`print mode, ${signal} during a bash command: exit ${code}, the command's whole group is gone, the session is saved`, async () => {
      const run = await startPrint();
      run.proc.kill(signal);
      expect(await run.proc.exited).toBe(code);
      const [stdout, stderr] = await run.output;
      expect(stdout).toBe("");
      expect(stderr).toEndWith(`\n! stopped by ${signal}; the session is saved (continue it with shiro -c)\n`);
      await expectCommandGone(run);
      await expectRunSaved(run.home, signal);
    });
  }

  test.concurrent("print mode, --json, SIGTERM: the result line says aborted and names the signal, exit 143", async () => {
    const run = await startPrint(["--json"]);
    run.proc.kill("SIGTERM");
    expect(await run.proc.exited).toBe(143);
    const [stdout, stderr] = await run.output;
    expect(JSON.parse(stdout.trimEnd().split("\n").at(-1)!)).toMatchObject({ type: "result", status: "aborted", signal: "SIGTERM" });
    expect(stderr).toBe("");
  });

  for (const args of [[], ["--sandbox", "off"]]) {
    test.concurrent(`kill -9 of shiro during a bash command${args.length ? " outside the sandbox: the lifeline alone kills" : ": the sandbox and the lifeline kill"} the command's whole group`, async () => {
      const run = await startPrint(args);
      run.proc.kill("SIGKILL");
      expect(await run.proc.exited).toBe(137);
      await expectCommandGone(run);
    });
  }

  test.concurrent("print mode in a terminal that closes: exit 129 although stderr is gone, nothing of the command left, the session saved", async () => {
    const { cwd, home, env } = project();
    await using pty = spawnPty([BINARY, "-p", "--yolo", "run the command"], { cwd, env });
    const run = await runningGroup(cwd);
    pty.hangUp();
    expect(await pty.exited).toBe(129);
    await expectCommandGone(run);
    await expectRunSaved(home, "SIGHUP");
  });

  const REPL_STOPS: [string, "SIGTERM" | "SIGHUP", (repl: Repl) => void][] = [
    ["SIGTERM", "SIGTERM", (repl) => repl.kill("SIGTERM")],
    ["SIGHUP", "SIGHUP", (repl) => repl.kill("SIGHUP")],
    ["its terminal closing", "SIGHUP", (repl) => repl.hangUp()],
  ];
  for (const [what, signal, stop] of REPL_STOPS) {
    const code = signal === "SIGTERM" ? 143 : 129;
    test.concurrent(`the REPL, ${what} during a bash command: exit ${code}, the command's whole group is gone, the session is saved`, async () => {
      const { cwd, home } = project();
      await using repl = await startRepl({ cwd, home, baseUrl: server.url, args: ["--yolo"] });
      await repl.send("run the command");
      const run = await runningGroup(cwd);
      stop(repl);
      expect(await repl.exited).toBe(code);
      // With the terminal still there, the last line says what happened and how to go on.
      if (what.startsWith("SIG")) expect(repl.screen()).toMatch(new RegExp(`\n! stopped by ${what}; the session is saved \\(resume with: shiro -r [0-9a-f-]+\\)\n*$`));
      await expectCommandGone(run);
      await expectRunSaved(home, signal);
    });
  }
});
