/**
 * Issue 35: offline under bubblewrap, a background job's server on 127.0.0.1 is in the session's own
 * network namespace: the session's later command reaches it, a connection from outside (this test,
 * while the job runs) does not. The control in the same mode with the network given (`--network`):
 * the job is on the host's loopback, and the same connection from outside is answered.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { answersFromOutside, goneTagged, jobServer } from "../../support/job-server.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", Bun.which("bwrap") !== null);
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const bash = (command: string, background?: true) => ({ name: "bash", arguments: { command, ...(background ? { background } : {}) } });

/** Runs the job; while it still serves, after the session's own fetch, this test tries from outside. */
async function serveAndProbe(args: string[]) {
  const root = tempDir("job-net");
  made.push(root);
  const cwd = join(root, "proj");
  mkdirSync(cwd);
  const server = jobServer(cwd);
  const fetchInside = `for i in $(seq 100); do curl -s 127.0.0.1:${server.port}/inside && break; sleep 0.1; done`;
  const steps = sequenceModel([bash(server.command, true), bash(fetchInside)], "done");
  let outside: boolean | undefined;
  const strict = await startStrictServer({
    defaultModel: (req) => {
      const inside = visibleOutputs(req.input).find((o) => (o.arguments as { command?: string }).command === fetchInside);
      if (inside && outside === undefined) outside = answersFromOutside(server.port);
      return steps(req);
    },
  });
  try {
    const run = await runShiro(["-p", ...args, "serve and fetch"], { cwd, env: { OPENAI_BASE_URL: strict.url }, timeoutMs: 60_000 });
    const inside = visibleOutputs(strict.requests.at(-1)!.body.input).find((o) => (o.arguments as { command?: string }).command === fetchInside)?.output;
    return { run, inside, outside, left: await goneTagged(server.tag), tag: server.tag };
  } finally {
    await strict.stop();
  }
}

test.skipIf(!hasBwrap)("offline (--yolo): the session's later command reaches the job's server, nothing outside does", async () => {
  const { run, inside, outside, left, tag } = await serveAndProbe(["--yolo"]);
  expect(run.code).toBe(0);
  expect(inside).toStartWith(`hello from ${tag}`);
  expect(outside).toBe(false);
  expect(left).toEqual([]);
});

test.skipIf(!hasBwrap)("the control: with the network given (--yolo --network) the same server answers outside too", async () => {
  const { run, inside, outside, left, tag } = await serveAndProbe(["--yolo", "--network"]);
  expect(run.code).toBe(0);
  expect(inside).toStartWith(`hello from ${tag}`);
  expect(outside).toBe(true);
  expect(left).toEqual([]);
});
