/**
 * Where bwrap cannot run (GitHub's Ubuntu 24.04 runner, simulated: test/support/no-userns.ts), shiro
 * picks Landlock by itself and the job still works, sandboxed: writes outside the project fail and one
 * inside lands under --yolo; `ls` runs in the read-only default; secrets in the project and the home,
 * and the API key in shiro's own /proc environ, never reach the model; a loopback listener hears nothing.
 * The simulation is checked first: where it does not hold the tests are skipped with a note, and in CI they fail.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_USERNS, simulationHere } from "../../support/no-userns.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
let heard = 0;
let listener: { port: number; stop(closeActive?: boolean): void };
beforeAll(() => {
  listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void heard++, data() {} } });
});
afterAll(() => listener.stop(true));

function layout() {
  const home = tempDir("nouserns-home");
  const root = join(home, "code/proj");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, "lib"));
  writeFileSync(join(root, "README"), "hello from the project\n");
  writeFileSync(join(root, "src/.env"), "API_TOKEN=nouserns-project-secret-1b2c\n");
  writeFileSync(join(home, ".bashrc"), "export GH_TOKEN=nouserns-home-token-8e4d\n");
  return { home, root };
}

// Where it does not hold, these are skipped with a note (and fail in CI): tool-here.ts.
const simulated = simulationHere();

test.skipIf(!simulated)("--yolo in the simulation: Landlock is chosen by itself, the project is written, the home is not, no secret and no API key reach the model, the listener hears nothing", async () => {
  const l = layout();
  const calls = [
    bash(`echo made > lib/made.txt; echo more >> README; echo no > ~/planted.txt; cat src/"$(printf '.e%s' nv)" ~/"$(printf '.bash%s' rc)"; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c OPENAI; exec 3<>/dev/tcp/127.0.0.1/${listener.port} && echo connected; cat README`),
  ];
  heard = 0;
  const job = await scriptedJob(calls, { cwd: l.root, home: l.home, args: ["--yolo"], wrap: NO_USERNS });
  const out = job.outputs[0]!.output;
  expect(job.stderr).toContain("commands run under Landlock");
  expect(out).toContain("hello from the project");
  expect(readFileSync(join(l.root, "lib/made.txt"), "utf8")).toBe("made\n");
  expect(readFileSync(join(l.root, "README"), "utf8")).toBe("hello from the project\nmore\n");
  expect(existsSync(join(l.home, "planted.txt"))).toBe(false);
  expect(out).not.toContain("[redacted"); // nothing secret was even read: not the key, not a secret file
  expect(job.requests.some((r) => r.raw.includes("nouserns-project-secret-1b2c") || r.raw.includes("nouserns-home-token-8e4d") || r.raw.includes(TEST_API_KEY))).toBe(false);
  expect(heard).toBe(0);
});

test.skipIf(!simulated)("the control: with --sandbox off in the same simulation, the same command reads the home and shiro's environ", async () => {
  const l = layout();
  const job = await scriptedJob([bash(`cat ~/.bashrc; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep OPENAI_API`)], { cwd: l.root, home: l.home, args: ["--yolo", "--sandbox", "off"], wrap: NO_USERNS });
  expect(job.outputs[0]!.output).toContain("[redacted");
});

test.skipIf(!simulated)("the read-only default in the simulation: ls runs and its output reaches the model; a write fails", async () => {
  const l = layout();
  const job = await scriptedJob([bash("ls; echo x > made.txt")], { cwd: l.root, home: l.home, wrap: NO_USERNS });
  expect(job.outputs[0]!.output).toContain("README");
  expect(existsSync(join(l.root, "made.txt"))).toBe(false);
  expect(job.code).toBe(0);
});

test.skipIf(!simulated)("shiro doctor in the simulation names Landlock and why bubblewrap was passed over", async () => {
  const r = await runShiro(["doctor"], { cwd: tempDir("nouserns-doctor"), wrap: NO_USERNS });
  expect(r.stdout).toMatch(/sandbox: Landlock \(ABI \d+\), as bubblewrap cannot run: bwrap cannot create its namespaces here/);
});
