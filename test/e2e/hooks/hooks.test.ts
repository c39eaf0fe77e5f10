/**
 * Hooks through the binary against the strict server, with a scripted model: a PreToolUse hook that
 * blocks by exit 2 (the model reads why), fails closed when it crashes, times out or prints broken
 * JSON, and lets a crash pass only with `onFailure: "allow"`; a PostToolUse formatter whose change
 * the model reads; a Stop hook that sends the model back once; what a hook gets (stdin, environment);
 * the runs in `shiro inspect`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { FINAL, scriptedJob } from "../../support/scripted-job.ts";
import { firstUserText, lastUserText, type PlannedCall } from "../../support/scripts.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { REPO } from "../../support/binary.ts";
import { inspectedBodies } from "../../support/inspected-bodies.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A project with a canary file, and a home whose config.json holds `config`. */
function setup(config: (dirs: { home: string; root: string }) => object) {
  const root = tempDir("hooks-proj");
  const home = tempDir("hooks-home");
  made.push(root, home);
  writeFileSync(join(root, "canary.txt"), "still here\n");
  writeFileSync(join(home, "config.json"), JSON.stringify(config({ home, root })));
  return { root, home };
}

const pre = (command: string, extra: object = {}) => ({ hooks: { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command, ...extra }] }] } });
const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
// --sandbox off: what a hook lets through really runs, with no sandbox to stop it instead.
const ARGS = ["--yolo", "--sandbox", "off"];

describe("PreToolUse hooks decide before the call runs", () => {
  test("a matcher brought from Claude Code (`Edit|Write`) guards shiro's write_file and apply_patch: neither file is written", async () => {
    const { root, home } = setup(() => ({ hooks: { PreToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "echo 'no writes today' >&2; exit 2" }] }] } }));
    const job = await scriptedJob(
      [
        { name: "write_file", arguments: { path: "canary.txt", content: "overwritten\n" } },
        { name: "apply_patch", arguments: { patch: "*** Begin Patch\n*** Add File: new.txt\n+made\n*** End Patch" } },
      ],
      { cwd: root, home, args: ARGS },
    );
    expect(job.code).toBe(4);
    expect(readFileSync(join(root, "canary.txt"), "utf8")).toBe("still here\n");
    expect(existsSync(join(root, "new.txt"))).toBe(false);
    expect(job.requests.at(-1)!.raw).toContain("no writes today");
  });

  test("exit 2 blocks `rm`: the model reads the hook's stderr in the next request, the canary stays; the hook got the call as JSON on stdin, and no API key", async () => {
    const { root, home } = setup(({ home }) => ({
      ...pre(`cat > ${home}/seen.json; env > ${home}/env.txt; grep -q '"rm ' ${home}/seen.json && { echo 'no rm here: move it to trash/ instead' >&2; exit 2; }; exit 0`),
      hooksEnv: ["HOOK_ONLY_TOKEN"],
    }));
    // A secret reaches a hook only when hooksEnv names it; an ordinary variable reaches it as it reaches commands.
    const env0 = { HOOK_ONLY_TOKEN: "for-hooks", NOT_NAMED_TOKEN: "kept-out", PLAIN_SETTING: "ordinary" };
    const job = await scriptedJob([bash("rm canary.txt")], { cwd: root, home, args: ARGS, env: env0 });
    expect([job.code, job.stdout]).toEqual([4, FINAL + "\n"]);
    expect(job.outputs[0]!.output).toBe("Denied: a PreToolUse hook blocked it: no rm here: move it to trash/ instead");
    expect(job.requests[1]!.raw).toContain("no rm here: move it to trash/ instead");
    expect(readFileSync(join(root, "canary.txt"), "utf8")).toBe("still here\n");

    const seen = JSON.parse(readFileSync(join(home, "seen.json"), "utf8"));
    expect(seen).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "bash", tool_input: { command: "rm canary.txt" }, cwd: root });
    expect(seen.session_id).toMatch(/^[0-9a-z-]{8,}/);
    expect(typeof seen.tool_use_id).toBe("string");
    const env = readFileSync(join(home, "env.txt"), "utf8");
    expect(env).not.toContain(TEST_API_KEY);
    expect(env).not.toContain("OPENAI_API_KEY");
    expect(env).not.toContain("kept-out");
    expect(env).toContain("HOOK_ONLY_TOKEN=for-hooks\n");
    expect(env).toContain("PLAIN_SETTING=ordinary\n");
    expect(env).toContain(`SHIRO_PROJECT_DIR=${root}\n`);
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${root}\n`);
    expect(env).toContain(`HOME=${home}\n`);

    // The run, its decision and the reason are in the log, and `shiro inspect` shows them.
    const sessions = await runShiro(["sessions", "--json"], { cwd: root, home });
    const id = JSON.parse(sessions.stdout)[0].id;
    const overview = await runShiro(["inspect", id], { cwd: root, home });
    expect(overview.stdout).toMatch(/\nhooks +1 run · 1 blocked · \(--turns shows each\)\n/);
    const turns = await runShiro(["inspect", id, "--turns"], { cwd: root, home });
    expect(turns.code).toBe(0);
    expect(turns.stdout).toMatch(/hook PreToolUse bash · cat > .* · exit 2 · block · \d+ ms: no rm here: move it to trash\/ instead/);
    const json = JSON.parse((await runShiro(["inspect", id, "--turns", "--json"], { cwd: root, home })).stdout);
    expect(json.turns[0].hooks).toMatchObject([{ event: "PreToolUse", tool: "bash", exit: 2, decision: "block", source: "config.json" }]);
    // One call: the run under the call that asked for the blocked `rm`, not under the answer after it.
    const hookRow = /\nhook PreToolUse bash · cat > .* · exit 2 · block · \d+ ms: no rm here: move it to trash\/ instead(\n|$)/;
    for (const args of [[], ["--diff"]]) {
      expect((await runShiro(["inspect", id, "1", ...args], { cwd: root, home })).stdout).toMatch(hookRow);
      expect((await runShiro(["inspect", id, "2", ...args], { cwd: root, home })).stdout).not.toContain("hook PreToolUse");
    }
    const one = JSON.parse((await runShiro(["inspect", id, "1", "--diff", "--json"], { cwd: root, home })).stdout);
    expect(one.hooks).toMatchObject([{ event: "PreToolUse", tool: "bash", exit: 2, decision: "block", reason: "no rm here: move it to trash/ instead" }]);
    expect(JSON.parse((await runShiro(["inspect", id, "2", "--diff", "--json"], { cwd: root, home })).stdout).hooks).toEqual([]);
  });

  test("a hook that crashes blocks the call (fail closed), saying why", async () => {
    const { root, home } = setup(() => pre("echo 'oops: config missing' >&2; exit 1"));
    const job = await scriptedJob([bash("rm canary.txt")], { cwd: root, home, args: ARGS });
    expect(job.code).toBe(4);
    expect(job.outputs[0]!.output).toBe(
      'Denied: a PreToolUse hook blocked it: the PreToolUse hook `echo \'oops: config missing\' >&2; exit 1` exited 1: oops: config missing, so this was blocked (a hook that fails blocks; "onFailure": "allow" on it lets a failure pass)',
    );
    expect(existsSync(join(root, "canary.txt"))).toBe(true);
  });

  test("a hook that does not finish in its timeout is killed, with what it started, and the call blocked — promptly", async () => {
    const { root, home } = setup(({ home }) => pre(`(sleep 30; touch ${home}/late.txt) & sleep 30`, { timeout: 1 }));
    // (Unkilled, its `sleep 30` would outlast the test's own time.)
    const job = await scriptedJob([bash("rm canary.txt")], { cwd: root, home, args: ARGS });
    expect(job.code).toBe(4);
    expect(job.outputs[0]!.output).toContain("did not finish within 1 s and was killed, so this was blocked");
    expect(existsSync(join(root, "canary.txt"))).toBe(true);
    await Bun.sleep(200);
    expect(Bun.spawnSync(["pgrep", "-f", `touch ${home}/late.txt`]).exitCode).toBe(1);
  });

  test("output that starts as JSON and is not, or JSON of the wrong shape, blocks the call", async () => {
    for (const printed of [`'{"decision": '`, `'{"hookSpecificOutput": {"permissionDecision": "maybe"}}'`]) {
      const { root, home } = setup(() => pre(`echo ${printed}`));
      const job = await scriptedJob([bash("rm canary.txt")], { cwd: root, home, args: ARGS });
      expect(job.code).toBe(4);
      expect(job.outputs[0]!.output).toMatch(/printed (output that starts as JSON but is not|JSON that is not a hook's answer)/);
      expect(existsSync(join(root, "canary.txt"))).toBe(true);
    }
  });

  test("a hook's ask is a denial in print mode, where nobody can answer, even under --yolo", async () => {
    const ask = `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": "deleting needs a look"}}'`;
    const { root, home } = setup(() => pre(ask));
    const job = await scriptedJob([bash("rm canary.txt")], { cwd: root, home, args: ARGS });
    expect(job.outputs[0]!.output).toBe("Denied: a PreToolUse hook asks for a person's approval (deleting needs a look), and this run cannot ask (print mode).");
    expect(existsSync(join(root, "canary.txt"))).toBe(true);
  });

  test('`onFailure: "allow"` lets a crashing hook\'s call run (with a warning)', async () => {
    const { root, home } = setup(() => pre("exit 3", { onFailure: "allow" }));
    const job = await scriptedJob([bash("rm canary.txt")], { cwd: root, home, args: ARGS });
    expect([job.code, job.outputs[0]!.output]).toEqual([0, "(no output)\n\nExit code: 0"]);
    expect(existsSync(join(root, "canary.txt"))).toBe(false);
    expect(job.stderr).toContain("the PreToolUse hook `exit 3` exited 3; going on");
  });

  test("a JSON deny blocks with its reason; an allow is no more than no objection (the guard still refuses)", async () => {
    const deny = `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not on Fridays"}}'`;
    const { root, home } = setup(() => pre(deny));
    const job = await scriptedJob([bash("rm canary.txt")], { cwd: root, home, args: ARGS });
    expect(job.outputs[0]!.output).toBe("Denied: a PreToolUse hook blocked it: not on Fridays");

    const allow = `echo '{"decision": "approve", "reason": "fine by me"}'`;
    const p = setup(() => ({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: allow }] }] } }));
    const denied = await scriptedJob([bash("rm -rf /")], { cwd: p.root, home: p.home, args: ["--yolo"] });
    expect(denied.code).toBe(4);
    expect(denied.outputs[0]!.output).not.toContain("fine by me");
    expect(denied.outputs[0]!.output).toStartWith("Denied:");
  });
});

test("the guard against `git push --force` in docs/hooks.md blocks a force push and lets another push run", async () => {
  const doc = readFileSync(join(REPO, "docs/hooks.md"), "utf8");
  const script = /### A guard against `git push --force`[\s\S]*?```bash\n([\s\S]*?)```/.exec(doc)![1]!;
  const { root, home } = setup(({ home }) => pre(`bash ${home}/no-force-push`));
  writeFileSync(join(home, "no-force-push"), script);
  const job = await scriptedJob([bash("git push --force origin main"), bash("git push -f"), bash("git push origin feature")], { cwd: root, home, args: ARGS });
  expect(job.outputs.map((o) => o.output.split("\n")[0])).toEqual([
    "Denied: a PreToolUse hook blocked it: force pushes are off here; push a branch and open a pull request instead",
    "Denied: a PreToolUse hook blocked it: force pushes are off here; push a branch and open a pull request instead",
    expect.stringContaining("fatal: not a git repository") as unknown as string,
  ]);
});

describe("PostToolUse and Stop hooks", () => {
  test("a formatter after write_file changes the file on disk; the model's next read shows it, and its additionalContext comes with the result", async () => {
    const format = `tr a-z A-Z < notes.txt > notes.tmp && mv notes.tmp notes.txt && echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "formatted notes.txt"}}'`;
    const { root, home } = setup(() => ({ hooks: { PostToolUse: [{ matcher: "edit_file|write_file", hooks: [{ type: "command", command: format }] }] } }));
    const steps: PlannedCall[] = [{ name: "write_file", arguments: { path: "notes.txt", content: "hello hooks\n" } }, { name: "read_file", arguments: { path: "notes.txt" } }];
    const job = await scriptedJob(steps, { cwd: root, home, args: ARGS });
    expect(job.code).toBe(0);
    expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("HELLO HOOKS\n");
    expect(job.outputs[0]!.output).toEndWith("\n\nformatted notes.txt");
    expect(job.outputs[1]!.output).toContain("HELLO HOOKS");
    expect(job.outputs[1]!.output).not.toContain("formatted");
  });

  test("a Stop hook keeps the run going once: two model calls, the second with the hook's reason", async () => {
    const stop = `grep -q '"stop_hook_active":false' && echo '{"decision": "block", "reason": "run the tests before you stop"}'; exit 0`;
    const { root, home } = setup(() => ({ hooks: { Stop: [{ hooks: [{ type: "command", command: stop }] }] } }));
    const job = await scriptedJob([], { cwd: root, home, args: ARGS });
    expect([job.code, job.stdout]).toEqual([0, FINAL + "\n"]);
    expect(job.requests).toHaveLength(2);
    expect(job.requests[0]!.raw).not.toContain("run the tests before you stop");
    expect(job.requests[1]!.raw).toContain("A Stop hook asked you to keep going: run the tests before you stop");
    expect(job.stderr).toContain("a Stop hook asked the model to keep going: run the tests before you stop");
    // Each Stop run is shown under the answer it judged: a block after call 1, no objection after call 2.
    const id = JSON.parse((await runShiro(["sessions", "--json"], { cwd: root, home })).stdout)[0].id;
    const hooksOf = async (call: string) => JSON.parse((await runShiro(["inspect", id, call, "--diff", "--json"], { cwd: root, home })).stdout).hooks.map((h: any) => h.decision);
    expect([await hooksOf("1"), await hooksOf("2")]).toEqual([["block"], ["continue"]]);
    expect((await runShiro(["inspect", id, "1"], { cwd: root, home })).stdout).toMatch(/\nhook Stop · grep -q .* · exit 0 · block · \d+ ms: run the tests before you stop\n$/);
  });
});

describe("UserPromptSubmit and SessionStart hooks", () => {
  test("SessionStart runs before the first prompt (told `startup`); UserPromptSubmit's stdout joins the prompt the model reads", async () => {
    const { root, home } = setup(({ home }) => ({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: `cat > ${home}/start.json` }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'the build is red since 09:00'" }] }],
      },
    }));
    const job = await scriptedJob([], { cwd: root, home, args: ARGS });
    expect(job.code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, "start.json"), "utf8"))).toMatchObject({ hook_event_name: "SessionStart", source: "startup" });
    expect(job.requests[0]!.raw).toContain(JSON.stringify("do the scripted job\n\nthe build is red since 09:00"));
  });

  test("SessionStart's additionalContext and plain stdout are in the first request, logged: `shiro inspect` rebuilds those bytes and `-c` resumes with them", async () => {
    const context = JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "branch feature/login, 3 tests failing" } });
    const { root, home } = setup(() => ({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: `printf '%s' '${context}'` }, { type: "command", command: `sed -n 's/.*"source":"\\([a-z]*\\)".*/started: \\1/p'` }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'the build is red since 09:00'" }] }],
      },
    }));
    const first = await scriptedJob([], { cwd: root, home, args: ARGS });
    // The hooks ran bare, as commands would: said once, and nothing else.
    expect([first.code, first.stderr]).toEqual([0, "! --sandbox off: commands run without an OS sandbox, under the guard alone\n"]);
    const opened = "do the scripted job\n\nbranch feature/login, 3 tests failing\nstarted: startup\n\nthe build is red since 09:00";
    expect(lastUserText(first.requests[0]!.body.input)).toBe(opened);
    const resumed = await scriptedJob([], { cwd: root, home, args: [...ARGS, "-c"] });
    expect(resumed.code).toBe(0);
    // The history holds what the model saw then; the resumed run's own start says so too.
    expect(firstUserText(resumed.requests[0]!.body.input)).toBe(opened);
    expect(lastUserText(resumed.requests[0]!.body.input)).toBe("do the scripted job\n\nbranch feature/login, 3 tests failing\nstarted: resume\n\nthe build is red since 09:00");
    const id = JSON.parse((await runShiro(["sessions", "--json"], { cwd: root, home })).stdout)[0].id;
    expect(await inspectedBodies(id, { cwd: root, home })).toEqual([...first.requests, ...resumed.requests].map((r) => r.raw));
  });

  test("a UserPromptSubmit hook that exits 2 keeps the prompt from the model: no request, its reason on stderr, exit 1", async () => {
    const { root, home } = setup(() => ({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo 'no prompts after 18:00' >&2; exit 2" }] }] } }));
    const job = await scriptedJob([], { cwd: root, home, args: ARGS });
    expect(job.code).toBe(1);
    expect(job.requests).toHaveLength(0);
    expect(job.stderr).toContain("a UserPromptSubmit hook kept the prompt from the model: no prompts after 18:00");
  });
});
