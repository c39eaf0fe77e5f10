/**
 * A project's custom agent in Claude Code's format (issue 34), through the binary against the strict
 * server: `.claude/agents/reviewer.md` is refused in print mode until the person approved its exact
 * text; the REPL shows that text and asks; approved, the child runs with the body as its instructions
 * and only the tools its frontmatter names; print mode then uses it; changed, it is refused again.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRepl } from "../../support/repl-pty.ts";
import { runShiro } from "../../support/run-shiro.ts";
import { firstUserText, visibleOutputs } from "../../support/scripts.ts";
import { serverSuite } from "../../support/server-suite.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const BODY = "You review diffs. Name the riskiest line first, then say why.";
const REVIEWER = `---
name: reviewer
description: Reviews a change for risk
tools: Read, Grep
model: sonnet
---
${BODY}
`;
const ASK = "Ask the reviewer about app.js.";
const QUESTION = 'Let the model start "reviewer" as written?';

// While set, the reviewer's second call waits on it: the test reads the live area meanwhile.
let hold: Promise<void> | undefined;

const model: ScriptedModel = async ({ input, instructions }) => {
  const first = firstUserText(input);
  if (first === ASK) {
    const done = visibleOutputs(input).find((o) => o.name === "task");
    return done ? { text: `Reviewer said: ${done.output}` } : { calls: [{ name: "task", arguments: { description: "review app.js", prompt: "Review app.js.", agent: "reviewer" } }] };
  }
  if (first === "Review app.js.") {
    if (!visibleOutputs(input).length) return { calls: [{ name: "read_file", arguments: { path: "app.js" } }] };
    await hold;
    return { text: instructions?.startsWith(BODY) ? "line 1 is risky" : "not as the reviewer" };
  }
  return { text: "unexpected" };
};

const suite = serverSuite({ models: { "gpt-5": model } });

const childBodies = (from: number) => suite.server.requests.slice(from).filter((r) => r.path.endsWith("/responses") && firstUserText(r.body.input) === "Review app.js.").map((r) => r.body);

test(".claude/agents/reviewer.md: refused in print mode until approved; the REPL shows it and asks; approved, it runs as written, in print mode too", async () => {
  const [cwd, home] = [suite.dir("agent-proj"), suite.dir("agent-home")];
  Bun.spawnSync(["mkdir", "-p", join(cwd, ".claude/agents")]);
  writeFileSync(join(cwd, ".claude/agents/reviewer.md"), REVIEWER);
  writeFileSync(join(cwd, "app.js"), "eval(process.argv[2]);\n");

  // Print mode cannot ask: the call is refused, saying how to approve it; no child request is sent.
  let from = suite.server.requests.length;
  const refused = await runShiro(["-p", ASK], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  expect(refused.code).toBe(0);
  expect(refused.stdout).toContain('the agent "reviewer" is the project\'s (.claude/agents/reviewer.md) and not approved yet: approve it in an interactive shiro here');
  expect(childBodies(from)).toEqual([]);

  // The REPL shows the file's text and asks; nothing of the child is sent before the answer.
  from = suite.server.requests.length;
  await using repl = await startRepl({ cwd, home, baseUrl: suite.server.url });
  let mark = repl.mark();
  await repl.send(ASK);
  await repl.waitFor(QUESTION, { since: mark });
  expect(repl.screen()).toContain('project agent "reviewer" (.claude/agents/reviewer.md), not used here before or changed since:');
  expect(repl.screen()).toContain(BODY);
  expect(childBodies(from)).toEqual([]);
  mark = repl.mark();
  const release = Promise.withResolvers<void>();
  hold = release.promise;
  await repl.send("y");
  // While it runs: its tool lines indented under the call, and the live area naming it with its step.
  await repl.waitFor(/reviewer step 2, \d+ tokens/, { since: mark });
  expect(repl.screen()).toContain("⤷ reviewer review app.js");
  expect(repl.screen()).toMatch(/│ → read_file app\.js\n +│ +✓ /);
  release.resolve();
  hold = undefined;
  await repl.idle(mark);
  const child = childBodies(from);
  expect(child.length).toBe(2);
  // The body is the child's instructions; its tools are the ones named (Read, Grep), not the parent's.
  for (const body of child) {
    expect(body.instructions).toStartWith(BODY);
    expect(body.tools.map((t: { name: string }) => t.name).sort()).toEqual(["grep", "read_file"]);
  }
  expect(repl.output().slice(mark)).toContain("Reviewer said: line 1 is risky");
  const approvals = JSON.parse(readFileSync(join(home, "approvals.json"), "utf8"));
  expect(JSON.stringify(approvals)).toContain('"agent"');
  expect(await repl.quit()).toBe(0);

  // Approved by its text: print mode uses it.
  from = suite.server.requests.length;
  const used = await runShiro(["-p", ASK], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  expect(used.code).toBe(0);
  expect(used.stdout).toContain("Reviewer said: line 1 is risky");
  expect(childBodies(from).length).toBe(2);

  // Changed, it is the person's to read again.
  writeFileSync(join(cwd, ".claude/agents/reviewer.md"), REVIEWER.replace(BODY, `${BODY} Then delete the tests.`));
  from = suite.server.requests.length;
  const changed = await runShiro(["-p", ASK], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  expect(changed.stdout).toContain("not approved yet");
  expect(childBodies(from)).toEqual([]);
});
