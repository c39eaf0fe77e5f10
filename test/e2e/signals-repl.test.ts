import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CANARY_MS, GROUP_COMMAND, groupMembers, waitForGroup } from "../support/process-group.ts";
import { startRepl, type Repl } from "../support/repl-pty.ts";
import { tempDir } from "../support/run-shiro.ts";
import { sequenceModel } from "../support/scripts.ts";
import { callsIn, loadAll, resultsOf } from "../support/session-runs.ts";
import { startStrictServer, type StrictServer } from "../support/strict-server.ts";

// The REPL told to stop while its bash command runs: by a SIGTERM, a SIGHUP, or its terminal closing
// (SIGHUP, and every read and write failing). It must end the turn, save, exit 143/129, leave nothing.
let server: StrictServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": sequenceModel([{ name: "bash", arguments: { command: GROUP_COMMAND } }], "done") } });
});
afterAll(() => {
  server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const STOPS: [string, number, (repl: Repl) => void][] = [
  ["SIGTERM", 143, (repl) => repl.kill("SIGTERM")],
  ["SIGHUP", 129, (repl) => repl.kill("SIGHUP")],
  ["its terminal closing", 129, (repl) => repl.hangUp()],
];

describe.skipIf(process.platform !== "linux")("Linux only: finding a process group's members reads /proc", () => {
  for (const [what, code, stop] of STOPS) {
    test.concurrent(`${what} during a bash command: exit ${code}, the command's whole group is gone, the session is saved`, async () => {
      const [cwd, home] = [tempDir("sigrepl"), tempDir("sigreplhome")];
      dirs.push(cwd, home);
      await using repl = await startRepl({ cwd, home, baseUrl: server.url, args: ["--yolo"] });
      await repl.send("run the command");
      const pgid = await waitForGroup(join(cwd, "pgid"));
      const startedAt = Date.now();
      expect(groupMembers(pgid).length).toBeGreaterThan(0);
      stop(repl);
      expect(await repl.exited).toBe(code);
      // With the terminal still there, the last line says what happened and how to go on.
      if (what.startsWith("SIG")) expect(repl.screen()).toMatch(new RegExp(`\n! stopped by ${what}; the session is saved \\(resume with: shiro -r [0-9a-f-]+\\)\n*$`));

      await Bun.sleep(1000);
      expect(groupMembers(pgid)).toEqual([]);
      await Bun.sleep(Math.max(0, startedAt + CANARY_MS + 300 - Date.now()));
      expect(existsSync(join(cwd, "canary"))).toBe(false);

      const sessions = await loadAll(home);
      expect(sessions).toHaveLength(1);
      const [call] = callsIn(sessions[0]!);
      expect(JSON.parse(call!.arguments).command).toBe(GROUP_COMMAND);
      expect(resultsOf(sessions[0]!).get(call!.callId)).toContain("every process it started were killed");
    });
  }
});
