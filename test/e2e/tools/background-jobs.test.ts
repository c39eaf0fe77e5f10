/**
 * Issue 35, background commands, through the binary under both sandboxes a CI runner gives: a `bun`
 * HTTP server started by one call is fetched by a later command's curl, read with bash_output and
 * killed with bash_kill (the port then refuses); a job left running at print mode's exit is gone; a
 * job that ends by itself is told to the model in the next request, and the log keeps the note.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { goneTagged, jobServer, processesTagged } from "../../support/job-server.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { RUNNER_BACKENDS } from "../../support/runner-backends.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import { lastUserText, sequenceModel, visibleOutputs } from "../../support/scripts.ts";

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project() {
  const root = tempDir("jobs");
  made.push(root);
  const cwd = join(root, "proj");
  const home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
  return { cwd, home };
}

const logOf = (started: string) => /logged in (\S+)\.$/m.exec(started)![1]!;
const bash = (command: string, background?: true) => ({ name: "bash", arguments: { command, ...(background ? { background } : {}) } });

for (const backend of RUNNER_BACKENDS) {
  // Landlock lets no offline command open a TCP socket: there the person gives the network.
  const args = backend.wrap.length ? ["--yolo", "--network"] : ["--yolo"];

  test.skipIf(!backend.runs)(`${backend.name}: a background server is fetched by a later command, read with bash_output, killed with bash_kill, and the port then refuses`, async () => {
    const { cwd, home } = project();
    const server = jobServer(cwd);
    const job = await scriptedJob(
      [
        bash(server.command, true),
        bash(`for i in $(seq 100); do curl -s 127.0.0.1:${server.port}/hi && break; sleep 0.1; done`),
        { name: "bash_output", arguments: { id: 1, wait: 5 } },
        { name: "bash_kill", arguments: { id: 1 } },
        bash(`curl -s -m 3 127.0.0.1:${server.port}/again; echo curl=$?`),
        // The job's whole output, spilled to its log, is the model's to read.
        (input) => ({ name: "read_file", arguments: { path: logOf(visibleOutputs(input).find((o) => o.name === "bash")!.output) } }),
      ],
      { cwd, home, args, wrap: backend.wrap, timeoutMs: 60_000 },
    );
    expect(job.code).toBe(0);
    const started = outputOf(job, "bash", (a) => a.background === true);
    expect(started).toContain("Started background job 1");
    expect(outputOf(job, "bash", (a) => a.command.startsWith("for i"))).toBe(`hello from ${server.tag}\n\nExit code: 0`);
    const read = outputOf(job, "bash_output", () => true);
    const killed = outputOf(job, "bash_kill", () => true);
    expect(read).toContain("Job 1 is running");
    // What the job printed, over the three reads: its start line and the request it served.
    expect(started + read + killed).toContain(`listening ${server.port}`);
    expect(started + read + killed).toContain("served /hi");
    expect(killed).toContain("Job 1 was killed, with every process it started");
    expect(outputOf(job, "bash", (a) => a.command.includes("/again"))).toContain("curl=7");
    const log = outputOf(job, "read_file", () => true);
    expect(log).toContain(`listening ${server.port}`);
    expect(log).toContain("served /hi");
    expect(await goneTagged(server.tag)).toEqual([]);
  });

  test.skipIf(!backend.runs)(`${backend.name}: a job still running at print mode's exit is gone with it, its log folder too`, async () => {
    const { cwd, home } = project();
    const server = jobServer(cwd);
    const job = await scriptedJob([bash(server.command, true), bash(`for i in $(seq 100); do curl -s 127.0.0.1:${server.port}/up && break; sleep 0.1; done`)], { cwd, home, args, wrap: backend.wrap, timeoutMs: 60_000 });
    expect(job.code).toBe(0);
    expect(outputOf(job, "bash", (a) => a.command.startsWith("for i"))).toStartWith(`hello from ${server.tag}`);
    const log = logOf(outputOf(job, "bash", (a) => a.background === true));
    expect(await goneTagged(server.tag)).toEqual([]);
    // The job's log went with the process's folder of them.
    expect(existsSync(join(log, "../.."))).toBe(false);
  });

  // SIGTERM: shiro ends its jobs as it closes; SIGKILL (a crash): each job's lifeline kills its group.
  test.skipIf(!backend.runs).each(["SIGTERM", "SIGKILL"] as const)(`${backend.name}: a job still running when shiro gets %s is gone with it`, async (signal) => {
    const { cwd, home } = project();
    const server = jobServer(cwd);
    const strict = await startStrictServer({ defaultModel: sequenceModel([bash(server.command, true), bash("sleep 30")], "never reached") });
    try {
      const proc = Bun.spawn([...backend.wrap, BINARY, "-p", ...args, "start the server"], {
        cwd,
        stdio: ["ignore", "pipe", "pipe"],
        env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: strict.url, NO_COLOR: "1", TMPDIR: tmpdir() },
      });
      // The job is up, and the turn has gone on to its next command.
      const deadline = Date.now() + 30_000;
      while ((processesTagged(server.tag).length === 0 || strict.requests.length < 2) && Date.now() < deadline) await Bun.sleep(50);
      expect(processesTagged(server.tag).length).toBeGreaterThan(0);
      proc.kill(signal);
      const code = await proc.exited;
      if (signal === "SIGTERM") expect(code).toBe(143);
      expect(await goneTagged(server.tag)).toEqual([]);
      // A shiro killed outright leaves its jobs' logs behind (docs/jobs.md): this test's go too.
      for (const dir of readdirSync(tmpdir()).filter((name) => name.startsWith(`shiro-jobs-${proc.pid}-`))) rmSync(join(tmpdir(), dir), { recursive: true, force: true });
    } finally {
      await strict.stop();
    }
  });

  test.skipIf(!backend.runs)(`${backend.name}: a job that ends by itself is told to the model in the next request, and the session's log keeps it`, async () => {
    const { cwd, home } = project();
    const job = await scriptedJob(
      [bash("while [ ! -e go ]; do sleep 0.05; done; echo bye; exit 3", true), bash("touch go; sleep 2; echo waited")],
      { cwd, home, args, wrap: backend.wrap, timeoutMs: 60_000 },
    );
    expect(job.code).toBe(0);
    const told = "Background job 1 (`while [ ! -e go ]; do sleep 0.05; done; echo bye; exit 3`) ended by itself with exit code 3";
    // The request after the waiting command carries the note, once, after that command's result.
    const after = job.requests.findIndex((r) => JSON.stringify(r.body.input).includes("waited"));
    expect(lastUserText(job.requests[after]!.body.input)).toContain(told);
    expect(job.requests.slice(0, after).some((r) => JSON.stringify(r.body.input).includes(told))).toBe(false);
    expect(JSON.stringify(job.requests[after]!.body.input).split(told)).toHaveLength(2);
    const sessions = join(home, "sessions");
    const log = readFileSync(join(sessions, readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!), "utf8");
    expect(log.split("\n").filter((line) => line.includes('"type":"job"'))).toHaveLength(1);
  });
}

test("a background command is judged as a foreground one: a deny rule refuses it and nothing starts", async () => {
  const { cwd, home } = project();
  const server = jobServer(cwd);
  const job = await scriptedJob([bash(server.command, true), bash("echo honest work")], { cwd, home, args: ["--yolo", "--deny", "bash:bun server.ts*"], timeoutMs: 60_000 });
  // A run with a denial ends with the denial's exit code, as it would for a foreground command.
  expect(job.code).toBe(4);
  expect(outputOf(job, "bash", (a) => a.background === true)).toStartWith("Denied:");
  // The control in the same run: a command no rule names runs.
  expect(outputOf(job, "bash", (a) => a.command === "echo honest work")).toStartWith("honest work");
  expect(processesTagged(server.tag)).toEqual([]);
});
