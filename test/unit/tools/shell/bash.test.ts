import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bash } from "../../../../src/tools/shell/bash.ts";
import { commandArgv, shellArgv } from "../../../../src/process/command-argv.ts";
import { call, tempProject } from "../../../support/temp-project.ts";
import { waitUntil } from "../../../support/wait-until.ts";

let project: ReturnType<typeof tempProject>;
afterEach(() => project.cleanup());

/** True once `pid` is gone (or only a zombie waiting for a reaper). */
async function diesWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    let state: string | undefined;
    try {
      state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    } catch {
      return true;
    }
    if (state === "Z") return true;
    await Bun.sleep(20);
  }
  return false;
}

const pidFrom = (root: string) => Number(readFileSync(join(root, "bg.pid"), "utf8").trim());

/** Aborts once the command has started its background child. */
function abortWhenStarted(root: string, controller: AbortController) {
  const poll = setInterval(() => {
    if (existsSync(join(root, "bg.pid"))) {
      clearInterval(poll);
      controller.abort();
    }
  }, 20);
}

describe("bash", () => {
  test("runs in the project root, combines stdout and stderr, states exit code 0", async () => {
    project = tempProject({ "hello.txt": "hi there\n" });
    const out = await call(bash, { command: "cat hello.txt; echo oops >&2" }, project.ctx());
    expect(out).toEqual({ output: "hi there\noops\n\nExit code: 0", isError: false });
    expect(bash.subject({ command: "ls" })).toEqual({ command: "ls" });
  });

  test("a non-zero exit is a normal result marked as an error", async () => {
    project = tempProject();
    const out = await call(bash, { command: "echo failing; exit 3" }, project.ctx());
    expect(out).toEqual({ output: "failing\n\nExit code: 3", isError: true });
    expect((await call(bash, { command: "true" }, project.ctx())).output).toBe("(no output)\n\nExit code: 0");
  });

  test("streams chunks to onOutput as they come", async () => {
    project = tempProject();
    const chunks: { text: string; at: number }[] = [];
    await call(bash, { command: "echo first; sleep 0.5; echo second" }, project.ctx({ onOutput: (text) => chunks.push({ text, at: Date.now() }) }));
    const finished = Date.now();
    expect(chunks.map((c) => c.text).join("")).toBe("first\nsecond\n");
    expect(chunks[0]!.text).toBe("first\n");
    expect(finished - chunks[0]!.at).toBeGreaterThan(400); // arrived while the command was still running
  });

  test("timeout kills the whole process group, background children included", async () => {
    project = tempProject();
    // (Were the group not killed, `sleep 100` would outlast the test's own timeout.)
    const out = await call(bash, { command: "sleep 100 & echo $! > bg.pid; echo started; sleep 100", timeout_ms: 2000 }, project.ctx());
    expect(out).toEqual({ output: "started\n\nTimed out after 2 s; the command and every process it started were killed.", isError: true });
    expect(await diesWithin(pidFrom(project.root), 10_000)).toBe(true);
  });

  test("a command that ignores SIGTERM is killed with SIGKILL a second later", async () => {
    project = tempProject();
    const turn = new AbortController();
    abortWhenStarted(project.root, turn);
    const out = await call(bash, { command: "trap '' TERM; sleep 100 & echo $! > bg.pid; while true; do sleep 0.1; done" }, project.ctx({ signal: turn.signal }));
    expect(out.output).toEndWith("Interrupted by the user; the command and every process it started were killed.");
    expect(await diesWithin(pidFrom(project.root), 10_000)).toBe(true);
  });

  test("the turn's abort signal and the command interrupt both kill the group", async () => {
    project = tempProject();
    const turn = new AbortController();
    abortWhenStarted(project.root, turn);
    const aborted = await call(bash, { command: "sleep 100 & echo $! > bg.pid; wait" }, project.ctx({ signal: turn.signal }));
    expect(aborted.output).toBe("(no output)\n\nInterrupted by the user; the command and every process it started were killed.");
    expect(await diesWithin(pidFrom(project.root), 10_000)).toBe(true);

    const ctrlC = new AbortController();
    abortWhenStarted(project.root, ctrlC);
    rmSync(join(project.root, "bg.pid"));
    const stopped = await call(bash, { command: "sleep 100 & echo $! > bg.pid; wait" }, project.ctx({ interrupt: ctrlC.signal }));
    expect(stopped).toEqual({ output: "(no output)\n\nStopped by the user (Ctrl-C); the command and every process it started were killed.", isError: true });
    expect(await diesWithin(pidFrom(project.root), 10_000)).toBe(true);
  });

  test("a background child still holding the output does not hang the call", async () => {
    project = tempProject();
    const out = await call(bash, { command: "sleep 100 & echo $! > bg.pid; echo done" }, project.ctx());
    expect(out.output).toStartWith("done\n\nExit code: 0. Background processes still holding the output were killed;");
    expect(await diesWithin(pidFrom(project.root), 10_000)).toBe(true);
  });

  test.skipIf(process.platform !== "linux")("the command gets /dev/null for stdin and no other descriptor than 0, 1, 2 (not the lifeline)", async () => {
    project = tempProject();
    // No pipeline in the probe (while bash forks its ends it holds the pipe itself), and not last (bash would exec it: $$ would be ls).
    const out = await call(bash, { command: "readlink /proc/$$/fd/0; ls /proc/$$/fd; true" }, project.ctx());
    expect(out.output).toBe("/dev/null\n0\n1\n2\n\nExit code: 0");
  });

  test("a background job with its output redirected outlives the command, as the tool's description promises", async () => {
    project = tempProject();
    // The job waits for a file the test makes only once the call is back: had the call waited for the job, it never would be.
    const out = await call(bash, { command: "(while [ ! -e go ]; do sleep 0.05; done; touch bg) > /dev/null 2>&1 & echo started" }, project.ctx());
    expect(out.output).toBe("started\n\nExit code: 0");
    expect(existsSync(join(project.root, "bg"))).toBe(false);
    writeFileSync(join(project.root, "go"), "");
    await waitUntil(() => existsSync(join(project.root, "bg")), "the background job touched bg");
  });

  test("the spawn argv: `bash -c <command>` (no login shell) behind the lifeline watcher, or alone where there is none", () => {
    const watched = commandArgv(shellArgv("make test"));
    expect(watched.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    expect(watched.slice(-3)).toEqual([shellArgv("x")[0]!, "-c", "make test"]);
    expect(shellArgv("x")[0]).toStartWith("/");
    expect(commandArgv(shellArgv("make test"), false)).toEqual([shellArgv("x")[0]!, "-c", "make test"]);
  });

  test("output over 30,000 chars keeps head and tail and says what was cut", async () => {
    project = tempProject();
    const out = await call(bash, { command: "echo HEAD; head -c 100000 /dev/zero | tr '\\0' x; echo; echo TAIL" }, project.ctx());
    expect(out.output).toStartWith("HEAD\nxxx");
    expect(out.output).toContain("\n[… 70011 chars cut from the middle of the output …]\n");
    expect(out.output).toEndWith("xxx\nTAIL\n\nExit code: 0");
    expect(out.output.length).toBeLessThan(30_200);
  });
});
