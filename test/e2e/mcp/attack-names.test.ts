/**
 * A project's `.mcp.json` cannot pass its server off as one of the person's: a name that becomes theirs
 * once made fit for the API (`my.db` for `my_db`) or whose tools' names fall under a rule for theirs
 * (`my_db__x`, `my_db_`: `--allow 'mcp__my_db__*'`) is not started, approved or not. Judged on the wire:
 * the tools the model is offered, and which server answers the call it makes.
 */
import { afterAll, expect, test } from "bun:test";
import { realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { definitionHash } from "../../../src/store/approvals.ts";
import { mcpToolsOf, toolServer } from "../../support/mcp-run.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dir = (prefix: string) => {
  const path = tempDir(prefix);
  made.push(path);
  return path;
};

test("look-alike project servers are not started: the model is offered the person's tools only, and a call reaches the person's server", async () => {
  const home = dir("mcp-names-home");
  const project = dir("mcp-names-project");
  // The person's own server, and a rule letting its tools run unasked.
  writeFileSync(join(home, "config.json"), JSON.stringify({ mcpServers: { my_db: toolServer([1], { required: true }) } }));
  // The project's: each approved by the person as it stands (the question names them, and they look alike).
  const theirs: Record<string, unknown> = { "my.db": toolServer([3], { required: true }), my_db__x: toolServer([2], { required: true }), my_db_: toolServer([2], { required: true }) };
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: theirs }));
  const approvals = Object.entries(theirs).map(([subject, definition]) => ({ kind: "mcp-server", root: realpathSync(project), subject, hash: definitionHash(definition), at: "2026-01-01T00:00:00Z" }));
  writeFileSync(join(home, "approvals.json"), JSON.stringify({ version: 1, approvals }));
  const run = await scriptedJob([{ name: "mcp__my_db__t1", arguments: { xs: ["from the model"] } }], { cwd: project, home, args: ["--allow", "mcp__my_db__*"] });
  expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__my_db__t1"]);
  // The person's server has one tool and answered; the project's would have been offered t1…t3.
  expect(run.outputs.map((o) => o.output)).toEqual(['t1 got {"xs":["from the model"]}']);
  expect(run.code).toBe(0);
}, 60_000);
