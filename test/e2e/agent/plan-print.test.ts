/**
 * Plan mode in print mode (issue 35), through the binary against the strict server: `--plan` offers
 * no tool that writes and says so in the instructions; a write through `bash` changes nothing on disk
 * even under --yolo, under bubblewrap and under Landlock — and the same prompt without `--plan` writes
 * (the control). The mode is in the log: `-c` goes on planning, `-c --no-plan` writes again; a child
 * a `task` call starts plans too; without an OS sandbox a command is refused rather than run.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simulationHolds } from "../../support/no-userns.ts";
import { RUNNER_BACKENDS } from "../../support/runner-backends.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { firstUserText, lastUserText, sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const WRITING = ["write_file", "edit_file", "apply_patch"];
const WRITE = "echo x > f.txt; touch g; mkdir made; ls";
const namesOf = (body: any): string[] => body.tools.map((t: { name: string }) => t.name);
const bash = (command: string) => ({ name: "bash", arguments: { command } });

function project() {
  const root = tempDir("plan");
  const [cwd, home] = [join(root, "project"), join(root, "home")];
  mkdirSync(cwd);
  mkdirSync(home);
  writeFileSync(join(cwd, "README"), "the plan's project\n");
  return { root, cwd, home, done: () => rmSync(root, { recursive: true, force: true }) };
}
const written = (cwd: string) => ["f.txt", "g", "made"].filter((name) => existsSync(join(cwd, name)));

for (const backend of RUNNER_BACKENDS)
  test.skipIf(!backend.runs)(`--plan: no writing tool offered, bash offered but read-only, its writes land nowhere; without --plan they land (${backend.name})`, async () => {
    if (backend.wrap.length) expect(simulationHolds()).toBeUndefined();
    const p = project();
    try {
      // --yolo approves the command: plan mode alone keeps it from writing.
      const plan = await scriptedJob([bash(WRITE)], { cwd: p.cwd, home: p.home, args: ["--plan", "--yolo"], wrap: backend.wrap });
      expect(plan.code).toBe(0);
      const body = plan.requests[0]!.body;
      expect(namesOf(body)).toContain("bash");
      for (const name of ["todo_write", "bash_output", "bash_kill"]) expect(namesOf(body)).toContain(name);
      for (const name of WRITING) expect(namesOf(body)).not.toContain(name);
      expect(body.instructions).toContain("You are in plan mode");
      expect(plan.outputs[0]!.output).toContain("README"); // the command ran: ls listed the project
      expect(plan.outputs[0]!.output).toContain("read-only sandbox");
      expect(written(p.cwd)).toEqual([]);

      const control = await scriptedJob([bash(WRITE)], { cwd: p.cwd, home: p.home, args: ["--yolo"], wrap: backend.wrap });
      expect(control.code).toBe(0);
      for (const name of WRITING) expect(namesOf(control.requests[0]!.body)).toContain(name);
      expect(control.requests[0]!.body.instructions).not.toContain("plan mode");
      expect(written(p.cwd)).toEqual(["f.txt", "g", "made"]);
    } finally {
      p.done();
    }
  });

test("a background job started in plan mode runs read-only: what it writes lands nowhere, its output is read with bash_output; without --plan it lands", async () => {
  const p = project();
  const model: ScriptedModel = ({ input }) => {
    const seen = visibleOutputs(input);
    if (seen.length === 0) return { calls: [{ name: "bash", arguments: { command: "touch bg.txt; echo job-said-$((40+2))", background: true } }] };
    const id = /Started background job (\S+?);/.exec(seen[0]!.output)?.[1];
    if (seen.length === 1 && id) return { calls: [{ name: "bash_output", arguments: { id: Number(id), wait: 10 } }] };
    return { text: "done" };
  };
  const server = await startStrictServer({ defaultModel: model });
  try {
    const run = (args: string[]) => runShiro(["-p", "--yolo", ...args, "start the job"], { cwd: p.cwd, home: p.home, env: { OPENAI_BASE_URL: server.url } });
    expect((await run(["--plan"])).code).toBe(0);
    const told = visibleOutputs(server.requests.at(-1)!.body.input).map((o) => o.output).join("\n");
    expect(told).toContain("job-said-42");
    expect(told).toContain("exited with code 0");
    expect(existsSync(join(p.cwd, "bg.txt"))).toBe(false);
    expect((await run([])).code).toBe(0);
    expect(existsSync(join(p.cwd, "bg.txt"))).toBe(true);
  } finally {
    await server.stop();
    p.done();
  }
});

test("a write tool the model calls anyway in plan mode is no tool of its: an error result, nothing written", async () => {
  const p = project();
  try {
    const job = await scriptedJob([{ name: "write_file", arguments: { path: "f.txt", content: "x\n" } }], { cwd: p.cwd, home: p.home, args: ["--plan", "--yolo"] });
    expect(job.outputs[0]!.output).toMatch(/unknown tool|not available|no tool/i);
    expect(existsSync(join(p.cwd, "f.txt"))).toBe(false);
  } finally {
    p.done();
  }
});

test("-c after a --plan run goes on planning; -c --no-plan offers the writing tools again and the command writes; the log holds each switch and inspect marks the plan's turns", async () => {
  const p = project();
  const server = await startStrictServer({ defaultModel: sequenceModel([(input) => bash(`touch ${/touch (\S+)/.exec(lastUserText(input))?.[1] ?? "none"}`)], "done") });
  try {
    const run = (args: string[], prompt: string) => runShiro(["-p", "--yolo", ...args, prompt], { cwd: p.cwd, home: p.home, env: { OPENAI_BASE_URL: server.url } });
    expect((await run(["--plan"], "plan: touch one")).code).toBe(0);
    const first = server.requests.length;
    expect((await run(["-c"], "then touch two")).code).toBe(0);
    const resumed = server.requests.slice(first);
    for (const r of resumed) for (const name of WRITING) expect(namesOf(r.body)).not.toContain(name);
    expect(resumed[0]!.body.instructions).toContain("You are in plan mode");
    expect(readdirSync(p.cwd)).toEqual(["README"]);

    const second = server.requests.length;
    expect((await run(["-c", "--no-plan"], "now touch three")).code).toBe(0);
    const after = server.requests.slice(second);
    expect(namesOf(after[0]!.body)).toContain("write_file");
    expect(after[0]!.body.instructions).not.toContain("plan mode");
    expect(readdirSync(p.cwd).sort()).toEqual(["README", "three"]);

    const [log] = readdirSync(join(p.home, "sessions")).filter((f) => f.endsWith(".jsonl"));
    const modes = readFileSync(join(p.home, "sessions", log!), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === "mode");
    expect(modes.map((e) => e.mode)).toEqual(["plan", "default"]);

    // inspect marks the turns sent in plan mode.
    const id = log!.replace(/\.jsonl$/, "");
    const overview = await runShiro(["inspect", id], { cwd: p.cwd, home: p.home });
    expect(overview.stdout).toMatch(/^\s*1\s+answered · plan\s+plan: touch one/m);
    expect(overview.stdout).toMatch(/^\s*2\s+answered · plan\s+then touch two/m);
    expect(overview.stdout).toMatch(/^\s*3\s+answered\s+now touch three/m);
    const json = JSON.parse((await runShiro(["inspect", id, "--json"], { cwd: p.cwd, home: p.home })).stdout);
    expect(json.turns.map((t: { mode: string }) => t.mode)).toEqual(["plan", "plan", "default"]);
  } finally {
    await server.stop();
    p.done();
  }
});

test("a child a task call starts in plan mode plans too: no writing tool, the plan instructions, its command read-only", async () => {
  const p = project();
  const model: ScriptedModel = ({ input }) => {
    if (firstUserText(input) === "delegate") {
      const done = visibleOutputs(input).find((o) => o.name === "task");
      return done ? { text: `child said: ${done.output.split("\n")[0]}` } : { calls: [{ name: "task", arguments: { description: "try a write", prompt: "child job", agent: null } }] };
    }
    return visibleOutputs(input).length ? { text: "child done" } : { calls: [bash("touch child.txt")] };
  };
  const server = await startStrictServer({ defaultModel: model });
  try {
    const r = await runShiro(["-p", "--plan", "--yolo", "delegate"], { cwd: p.cwd, home: p.home, env: { OPENAI_BASE_URL: server.url } });
    expect(r.code).toBe(0);
    const child = server.requests.filter((q) => firstUserText(q.body.input) === "child job");
    expect(child.length).toBeGreaterThan(0);
    for (const q of child) for (const name of WRITING) expect(namesOf(q.body)).not.toContain(name);
    expect(child[0]!.body.instructions).toContain("You are in plan mode");
    expect(r.stderr).toContain("Read-only file system");
    expect(existsSync(join(p.cwd, "child.txt"))).toBe(false);
    // The child's own log says it planned.
    const logs = readdirSync(join(p.home, "sessions")).filter((f) => f.endsWith(".jsonl")).map((f) => readFileSync(join(p.home, "sessions", f), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));
    const childLog = logs.find((events) => events[0].parent !== undefined)!;
    expect(childLog.filter((e) => e.type === "mode").map((e) => e.mode)).toEqual(["plan"]);
  } finally {
    await server.stop();
    p.done();
  }
});

test("--plan where no OS sandbox holds commands (--sandbox off): a command is refused, saying why, not run; without --plan it runs", async () => {
  const p = project();
  try {
    const job = await scriptedJob([bash("touch f.txt")], { cwd: p.cwd, home: p.home, args: ["--plan", "--yolo", "--sandbox", "off"] });
    expect(job.outputs[0]!.output).toContain("in plan mode a command runs only in a read-only OS sandbox");
    expect(existsSync(join(p.cwd, "f.txt"))).toBe(false);
    const control = await scriptedJob([bash("touch f.txt")], { cwd: p.cwd, home: p.home, args: ["--yolo", "--sandbox", "off"] });
    expect(control.code).toBe(0);
    expect(existsSync(join(p.cwd, "f.txt"))).toBe(true);
  } finally {
    p.done();
  }
});

test("--plan with --no-plan is a usage error, before anything is sent", async () => {
  const r = await runShiro(["-p", "--plan", "--no-plan", "hi"], { cwd: tempDir("plan-usage") });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("--plan and --no-plan contradict each other");
});
