/**
 * Plan mode in the REPL (issue 35), through a real pty against the strict server: `/plan` shows under
 * the prompt and the request offers no tool that writes; after the plan's answer the person is asked to
 * go ahead — y leaves plan mode in the same session, the writing tools are offered again and the write
 * lands. Typing instead refines the plan, still planning; a session left in plan mode resumes in it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { keys } from "../../support/pty.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { lastUserText, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const WRITING = ["write_file", "edit_file", "apply_patch"];
const IDLE_BADGE = "plan mode · only tools that read, commands read-only · /plan leaves it";
// What a REPL started in plan mode shows once ready (startRepl waits for the prompt last, which the badge follows).
const BADGE_SHOWN = new RegExp(IDLE_BADGE.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
const OFFER = "Go ahead with this plan? (y = leave plan mode and do it, or type to refine)";

/** Writes out.txt when it may; while it may not, answers with a plan for the last prompt. */
const planner: ScriptedModel = ({ input, tools }) => {
  const names = tools.map((t: { name: string }) => t.name);
  if (!names.includes("write_file")) return { text: `Plan for "${lastUserText(input)}": 1. write out.txt` };
  return visibleOutputs(input).some((o) => o.name === "write_file") ? { text: "written as planned" } : { calls: [{ name: "write_file", arguments: { path: "out.txt", content: "done\n" } }] };
};

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ defaultModel: planner });
});
afterAll(() => server.stop());

const namesOf = (body: any): string[] => body.tools.map((t: { name: string }) => t.name);

test("/plan shows under the prompt and offers no writing tool; y to the plan leaves plan mode and the write lands in the same session", async () => {
  const cwd = tempDir("repl-plan");
  await using repl = await startRepl({ cwd, baseUrl: server.url });
  await repl.send("/plan");
  await repl.waitFor(IDLE_BADGE);
  expect(repl.screen()).toContain("plan mode on");
  const before = server.requests.length;
  await repl.send("make out.txt");
  await repl.waitFor(OFFER);
  const planned = server.requests.slice(before);
  expect(planned.length).toBe(1);
  for (const name of WRITING) expect(namesOf(planned[0]!.body)).not.toContain(name);
  expect(namesOf(planned[0]!.body)).toContain("bash");
  expect(planned[0]!.body.instructions).toContain("You are in plan mode");
  expect(repl.screen()).toContain('Plan for "make out.txt"');
  expect(existsSync(join(cwd, "out.txt"))).toBe(false);

  const accepted = server.requests.length;
  const mark = repl.mark();
  repl.write("y");
  await repl.waitFor("allow?", { since: mark });
  await repl.send("y");
  await repl.waitFor("written as planned", { since: mark });
  await repl.idle(mark);
  const carried = server.requests.slice(accepted);
  expect(namesOf(carried[0]!.body)).toEqual(expect.arrayContaining(WRITING));
  expect(carried[0]!.body.instructions).not.toContain("plan mode");
  expect(lastUserText(carried[0]!.body.input)).toContain("The plan is accepted");
  expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("done\n");
  expect(repl.screen()).not.toContain(IDLE_BADGE);
  // One session throughout: its log says when plan mode began and ended.
  expect(modesIn(repl.home)).toEqual([["plan", "default"]]);
  expect(await repl.quit()).toBe(0);
});

test("typing at the offer refines the plan, still in plan mode; a session left planning resumes in plan mode (-c), and /clear keeps it", async () => {
  const cwd = tempDir("repl-plan");
  const home = tempDir("repl-plan-home");
  {
    await using repl = await startRepl({ cwd, home, baseUrl: server.url, args: ["--plan"], ready: BADGE_SHOWN });
    await repl.send("make out.txt");
    await repl.waitFor(OFFER);
    const before = server.requests.length;
    const mark = repl.mark();
    // The first key declines the offer and starts the reply.
    await repl.send("and a test");
    await repl.waitFor('Plan for "and a test"', { since: mark });
    await repl.waitFor(OFFER, { since: mark });
    const refined = server.requests.slice(before);
    expect(refined.length).toBe(1);
    expect(lastUserText(refined[0]!.body.input)).toBe("and a test");
    for (const name of WRITING) expect(namesOf(refined[0]!.body)).not.toContain(name);
    const declined = repl.mark();
    repl.write(keys.esc);
    await repl.waitFor(IDLE_BADGE, { since: declined });
    expect(await repl.quit()).toBe(0);
  }
  await using resumed = await startRepl({ cwd, home, baseUrl: server.url, args: ["-c"], ready: BADGE_SHOWN });
  const before = server.requests.length;
  await resumed.send("one more thing");
  await resumed.waitFor(OFFER);
  const next = server.requests.slice(before);
  for (const name of WRITING) expect(namesOf(next[0]!.body)).not.toContain(name);
  expect(existsSync(join(cwd, "out.txt"))).toBe(false);
  // /clear starts a new session in the mode the person works in.
  const declined = resumed.mark();
  resumed.write(keys.esc);
  await resumed.waitFor(BADGE_SHOWN, { since: declined });
  const cleared = resumed.mark();
  await resumed.send("/clear");
  await resumed.waitFor(BADGE_SHOWN, { since: cleared });
  const fresh = server.requests.length;
  await resumed.send("a fresh start");
  await resumed.waitFor(OFFER, { since: cleared });
  expect(server.requests.slice(fresh).map((r) => lastUserText(r.body.input))).toEqual(["a fresh start"]);
  for (const name of WRITING) expect(namesOf(server.requests.at(-1)!.body)).not.toContain(name);
  expect(modesIn(home)).toEqual([["plan"], ["plan"]]);
  expect(await resumed.quit()).toBe(0);
});

/** Each session's `mode` lines under a SHIRO_HOME. */
function modesIn(home: string): string[][] {
  const dir = join(home, "sessions");
  const glob = new Bun.Glob("*.jsonl");
  return [...glob.scanSync(dir)].map((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === "mode")
      .map((e) => e.mode),
  );
}
