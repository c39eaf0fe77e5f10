/**
 * A child agent's question in the REPL (issue 34), through the binary against the strict server: a
 * command the child wants to run is asked about as its parent's would be, the question naming the
 * agent that asks; the person's no is the child's denial and its command never runs; the person's yes
 * runs it.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startRepl } from "../../support/repl-pty.ts";
import { firstUserText, lastUserText, visibleOutputs } from "../../support/scripts.ts";
import { serverSuite } from "../../support/server-suite.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const model: ScriptedModel = ({ input }) => {
  const first = firstUserText(input);
  // The parent's session goes on: its newest prompt is the job, and the job's own task call its answer.
  const task = /^Have a child touch (\w+)\.$/.exec(lastUserText(input));
  if (task) {
    const done = visibleOutputs(input).find((o) => o.name === "task" && (o.arguments as { description: string }).description === `touch ${task[1]}`);
    return done ? { text: `child said: ${done.output.split("\n")[0]}` } : { calls: [{ name: "task", arguments: { description: `touch ${task[1]}`, prompt: `Touch ${task[1]}.`, agent: null } }] };
  }
  const name = /^Touch (\w+)\.$/.exec(first)?.[1];
  const ran = visibleOutputs(input).find((o) => o.name === "bash");
  if (!ran) return { calls: [{ name: "bash", arguments: { command: `touch ${name}.txt` } }] };
  return { text: ran.output.startsWith("Denied") ? "was refused" : "touched it" };
};

const suite = serverSuite({ models: { "gpt-5": model } });

test("the child's command is asked about with the agent named; no keeps it from running, yes runs it", async () => {
  const cwd = suite.dir("task-repl");
  await using repl = await startRepl({ cwd, baseUrl: suite.server.url });
  suite.keep(repl.home);

  let mark = repl.mark();
  await repl.send("Have a child touch no.");
  await repl.waitFor("allow? ", { since: mark });
  expect(repl.screen()).toContain("the general agent: ");
  expect(repl.screen()).toContain("touch no.txt");
  await repl.send("n");
  await repl.idle(mark);
  expect(existsSync(join(cwd, "no.txt"))).toBe(false);
  expect(repl.output().slice(mark)).toContain("child said: was refused");

  mark = repl.mark();
  await repl.send("Have a child touch yes.");
  await repl.waitFor("allow? ", { since: mark });
  expect(repl.screen()).toContain("the general agent: ");
  await repl.send("y");
  await repl.idle(mark);
  expect(existsSync(join(cwd, "yes.txt"))).toBe(true);
  expect(repl.output().slice(mark)).toContain("child said: touched it");
});
