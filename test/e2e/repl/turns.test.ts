import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { keys } from "../../support/pty.ts";
import { watchDisconnects } from "../../support/disconnect-watch.ts";
import { PROMPT, savedSessions, startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { lastUserText, sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// An odd duration so the test can look for this very process.
const SLEEP = "sleep 30.417";
const LONG_ANSWER = "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu";

let server: StrictServer;
/** Streams slowly enough (40 ms an event) to type while it runs. */
let paced: StrictServer;
beforeAll(async () => {
  paced = await startStrictServer({ paceMs: 40, models: { "test-slow": () => ({ text: LONG_ANSWER }) } });
  server = await startStrictServer({
    models: {
      "test-writer": sequenceModel(
        [(input) => ({ name: "write_file", arguments: { path: lastUserText(input).includes("second") ? "b.txt" : "a.txt", content: "hello\n" } })],
        (input) => `after the write: ${visibleOutputs(input).at(-1)?.output.split("\n")[0]}`,
      ),
      "test-slow": () => ({ text: LONG_ANSWER }),
      "test-sleeper": sequenceModel([{ name: "bash", arguments: { command: SLEEP } }], (input) => `bash said: ${visibleOutputs(input).at(-1)?.output.trim().split("\n").at(-1)}`),
    },
  });
});
afterAll(() => Promise.all([server.stop(), paced.stop()]));

const since = (n: number) => server.requests.slice(n);
const userTextsOf = (body: any): string[] =>
  body.input.filter((i: any) => i.type === "message" && i.role === "user").map((i: any) => (typeof i.content === "string" ? i.content : i.content.map((p: any) => p.text).join("")));

/** Whether `command` runs as a descendant of process `root` (an orphan from an earlier run does not count). */
function running(root: number, command: string): boolean {
  const rows = Bun.spawnSync(["ps", "-eo", "pid=,ppid=,args="]).stdout.toString().trim().split("\n");
  const procs = rows.map((r) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(r)!).map((m) => ({ pid: +m[1]!, ppid: +m[2]!, args: m[3]! }));
  const family = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (family.has(p.ppid) && !family.has(p.pid)) grew = Boolean(family.add(p.pid));
  }
  return procs.some((p) => family.has(p.pid) && p.args.includes(command));
}
async function until(condition: () => boolean, timeoutMs = 3000): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await Bun.sleep(25)) if (condition()) return true;
  return condition();
}

describe("REPL turns through a real pty (dist/shiro ↔ strict server)", () => {
  test("header shows model, folder and context use; the answer streams in; colours are on in a terminal", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url });
    const header = repl.screen().split("\n")[0]!;
    expect(header).toContain("gpt-5");
    expect(header).toContain(cwd);
    expect(header).toMatch(/context \d+%/);
    const mark = repl.mark();
    await repl.send("hello there");
    await repl.waitFor("You said: hello there", { since: mark });
    await repl.idle(mark);
    expect(repl.output()).toMatch(/\x1b\[\d+(;\d+)*m/);
    expect(await repl.quit()).toBe(0);
  });

  test("NO_COLOR: no colour escape codes anywhere, even for a diff", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-m", "test-writer"], env: { NO_COLOR: "1" } });
    await repl.send("write a file");
    await repl.waitFor("allow?");
    await repl.send("y");
    await repl.waitFor("after the write");
    await repl.idle();
    expect(repl.screen()).toContain("+hello");
    expect(repl.output()).not.toMatch(/\x1b\[[\d;]*m/);
    expect(await repl.quit()).toBe(0);
  });

  test("approve a write with y alone (file written, diff shown), refuse one with `n <reason>` (file absent, reason reaches the model)", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-m", "test-writer"] });
    await repl.send("write the first file");
    await repl.waitFor(/allow\? .*a\.txt: $/);
    expect(repl.screen()).toContain("+++ a.txt");
    expect(repl.screen()).toContain("+hello");
    // Editing the answer redraws the line with the question intact.
    await repl.type("nx", 1);
    repl.write(keys.backspace + keys.backspace);
    await repl.waitFor(/allow\? .*a\.txt: $/);
    // One key answers: y alone, no Enter.
    repl.write("y");
    await repl.waitFor("after the write: Created a.txt");
    expect(repl.screen()).toMatch(/allow\? .*a\.txt: y\n/);
    await repl.idle();
    expect(readFileSync(join(cwd, "a.txt"), "utf8")).toBe("hello\n");
    expect(repl.screen()).toContain("✓ Created a.txt");
    // The diff was shown with the question; the result does not repeat it.
    expect(repl.screen().match(/^\s*\+hello$/gm)).toHaveLength(1);
    expect(repl.output()).toContain("\x1b[32m+hello\x1b[39m"); // additions in green

    const before = server.requests.length;
    const mark = repl.mark();
    await repl.send("now the second file");
    await repl.waitFor(/allow\? .*b\.txt: $/, { since: mark });
    await repl.send("n keep it in memory instead");
    await repl.waitFor("denied", { since: mark });
    await repl.idle(mark);
    expect(existsSync(join(cwd, "b.txt"))).toBe(false);
    const followUp = since(before).at(-1)!.body;
    const output = followUp.input.filter((i: any) => i.type === "function_call_output").at(-1).output;
    expect(output).toContain("keep it in memory instead");
    // ↑ recalls prompts, not answers to approval questions.
    repl.write(keys.up);
    await repl.waitFor(/› now the second file$/);
    repl.write(keys.up);
    await repl.waitFor(/› write the first file$/);
    repl.write("\x15");
    expect(await repl.quit()).toBe(0);
  });

  test("Esc mid-stream cancels it: partial text saved as aborted, no further request, the queue is discarded (and says so)", async () => {
    const cwd = tempDir("repl-proj");
    const watch = watchDisconnects(server.url);
    await using repl = await startRepl({ cwd, baseUrl: watch.url, args: ["-m", "test-slow"] });
    // Opening events, item + part added, then three deltas; then the stream stalls for 10 s.
    server.inject({ delayMs: 10_000, afterEventCount: 7 });
    const before = server.requests.length;
    await repl.send("tell me a long story");
    await repl.waitFor("Alpha beta");
    await repl.send("this line is queued");
    await repl.waitFor("queued (1): this line is queued");
    repl.write(keys.esc);
    // Esc says what it dropped.
    await repl.waitFor("· dropped 1 queued prompt: this line is queued\n");
    await repl.waitFor("! aborted");
    await repl.idle();
    await until(() => watch.disconnects > 0);
    expect(watch.disconnects).toBe(1); // the client hung up on the stalled stream
    await watch.stop();
    const sent = since(before);
    expect(sent).toHaveLength(1);
    expect(sent.some((r) => r.raw.includes("this line is queued"))).toBe(false);
    expect(repl.screen()).not.toContain(LONG_ANSWER);
    expect(await repl.quit()).toBe(0);
    const [session] = savedSessions(repl.home);
    const last = session.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", incomplete: "aborted" });
    const text = last.parts.find((p: any) => p.type === "text").text;
    expect(text).toStartWith("Alpha");
    expect(LONG_ANSWER.startsWith(text) && text.length < LONG_ANSWER.length).toBe(true);
    expect(session.messages.some((m: any) => m.role === "user" && m.text.includes("queued"))).toBe(false);
  });

  test("typing during a stream never splices into it: Enter queues the line (sent next), an unsent draft waits at the prompt", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: paced.url, args: ["-m", "test-slow"] });
    const before = paced.requests.length;
    await repl.send("first question");
    await repl.waitFor("Alpha");
    await repl.send("second question");
    await repl.waitFor("· queued (1): second question");
    await repl.waitFor("› second question");
    await repl.waitFor("Alpha", { since: repl.mark() });
    await repl.type("unsent draft", 5);
    await repl.waitFor(/› unsent draft$/, { timeoutMs: 5000 });
    // Nothing typed was echoed into the answers; the queued notice sits on a line of its own.
    const screen = repl.screen();
    const between = (from: string, to: string) => screen.slice(screen.indexOf(from) + from.length, screen.indexOf(to)).split("\n");
    const first = between("› first question\n", "\n› second question");
    expect(first.filter((l) => !l.startsWith("· queued (1): second question")).join("")).toBe(LONG_ANSWER);
    expect(between("› second question\n", "\n› unsent draft")).toEqual([LONG_ANSWER]);
    const sent = paced.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(userTextsOf(sent[1]!.body)).toEqual(["first question", "second question"]);
    expect(sent[1]!.body.input.some((i: any) => i.role === "assistant")).toBe(true);
    repl.write("\x15");
    expect(await repl.quit()).toBe(0);
  });

  test("a line typed while a slash command works (/compact) waits for it, then runs on the compacted history", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url });
    await repl.send("hi");
    await repl.waitFor("You said: hi");
    await repl.idle();
    server.inject({ delayMs: 800 });
    const before = server.requests.length;
    await repl.send("/compact");
    await repl.waitFor("writing a summary");
    await repl.send("after compact");
    await repl.waitFor("· queued (1): after compact");
    await repl.waitFor(/You said: after compact\n› $/);
    const [summaryRequest, turnRequest] = since(before);
    expect(userTextsOf(summaryRequest!.body)[0]).toStartWith("Summarise the coding session");
    const texts = userTextsOf(turnRequest!.body);
    expect(texts[0]).toStartWith("Summary of the conversation so far");
    expect(texts.at(-1)).toBe("after compact");
    expect(await repl.quit()).toBe(0);
  });

  test("Esc while a refusal's reason is half typed: refused, the reason is wiped, the next prompt starts clean", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-m", "test-writer"] });
    await repl.send("write the first file");
    await repl.waitFor(/allow\? .*a\.txt: $/);
    await repl.type("n half a reas", 1);
    await repl.waitFor(/a\.txt: n half a reas$/m);
    repl.write(keys.esc);
    await repl.waitFor("! aborted");
    await repl.idle();
    expect(repl.currentLine()).toBe(PROMPT);
    expect(repl.screen()).toContain("a.txt: Esc\n");
    expect(repl.screen()).not.toContain("half a reas");
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    const before = server.requests.length;
    await repl.send("next");
    await repl.waitFor(/after the write: .*\n› $/);
    expect(userTextsOf(since(before)[0]!.body).at(-1)).toBe("next");
    expect(await repl.quit()).toBe(0);
  });

  test("Ctrl-C while a write waits for approval stops the turn instead of hanging", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-m", "test-writer"] });
    await repl.send("write the first file");
    await repl.waitFor(/allow\? .*a\.txt: $/);
    repl.write(keys.ctrlC);
    await repl.waitFor("! aborted");
    await repl.idle();
    expect(existsSync(join(cwd, "a.txt"))).toBe(false);
    expect(await repl.quit()).toBe(0);
  });

  test("Ctrl-C during `sleep 30` kills the command but the turn goes on: the model gets a result and answers", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url, args: ["-m", "test-sleeper", "--yolo"] });
    await repl.send("sleep please");
    await repl.waitFor(`● bash ${SLEEP}`);
    expect(await until(() => running(repl.pid, SLEEP))).toBe(true);
    repl.write(keys.ctrlC);
    await repl.waitFor("bash said: Stopped by the user (Ctrl-C)");
    expect(repl.screen()).toContain("✗ Stopped by the user (Ctrl-C)");
    await repl.idle();
    expect(await until(() => !running(repl.pid, SLEEP))).toBe(true);
    expect(await repl.quit()).toBe(0);
  });

  test("Ctrl-C twice at an idle prompt quits with 0; once only warns", async () => {
    const cwd = tempDir("repl-proj");
    await using repl = await startRepl({ cwd, baseUrl: server.url });
    repl.write(keys.ctrlC);
    await repl.waitFor("press Ctrl-C again to quit");
    await repl.idle();
    repl.write(keys.ctrlC);
    expect(await repl.exited).toBe(0);
  });

  test("Ctrl-D quits with 0", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url });
    expect(repl.currentLine()).toBe(PROMPT);
    expect(await repl.quit()).toBe(0);
  });
});
