/**
 * A child agent is never looser than its parent (issue 34), through the binary against the strict
 * server: an agent whose tools leave out `bash` is not offered it; its write outside the project is
 * refused word for word as its parent's is (and its write inside goes through, and `undo` of the
 * parent's turn puts it back); `--max-cost` reached by the children stops them all (exit 3); a child
 * compacts its own context, and none of it reaches the parent's.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro } from "../../support/run-shiro.ts";
import { firstUserText, visibleOutputs } from "../../support/scripts.ts";
import { serverSuite } from "../../support/server-suite.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const EDITOR = "You edit files, and nothing else.";
const AGENTS = JSON.stringify({ editor: { description: "writes files", prompt: EDITOR, tools: ["Read", "Write", "Edit"] } });
const outputs = (input: any[], name: string) => visibleOutputs(input).filter((o) => o.name === name);

const model: ScriptedModel = ({ input, instructions }) => {
  const first = firstUserText(input);
  switch (first) {
    case "Have the editor write the notes.":
      return outputs(input, "task").length ? { text: "done" } : { calls: [{ name: "task", arguments: { description: "write notes", prompt: "Write the notes.", agent: "editor" } }] };
    case "Write the notes.":
      return outputs(input, "write_file").length
        ? { text: "wrote" }
        : { calls: [{ name: "write_file", arguments: { path: "notes.md", content: "hello\n" } }, { name: "write_file", arguments: { path: "../outside.txt", content: "x\n" } }] };
    case "Write outside yourself.":
      return outputs(input, "write_file").length ? { text: "tried" } : { calls: [{ name: "write_file", arguments: { path: "../outside.txt", content: "x\n" } }] };
    case "Spend it all.":
      return outputs(input, "task").length ? { text: "spent" } : { calls: ["one", "two"].map((n) => ({ name: "task", arguments: { description: `loop ${n}`, prompt: "Read forever.", agent: null } })) };
    case "Have a child read the big files.":
      return outputs(input, "task").length ? { text: "the child read them" } : { calls: [{ name: "task", arguments: { description: "read big files", prompt: "Read big0.txt to big5.txt one by one.", agent: null } }] };
    case "Read big0.txt to big5.txt one by one.": {
      const read = outputs(input, "read_file").length;
      return read < 6 ? { calls: [{ name: "read_file", arguments: { path: `big${read}.txt` } }] } : { text: "read all six" };
    }
    case "Read forever.":
      // Never done: only the budget ends it.
      return { calls: [{ name: "read_file", arguments: { path: "README.md", offset: outputs(input, "read_file").length + 1, limit: 1 } }] };
    default:
      return { text: `unexpected: ${first} ${instructions?.slice(0, 20)}` };
  }
};

const suite = serverSuite({ models: { "gpt-5": model } });

function project() {
  const root = suite.dir("task-parent");
  const cwd = join(root, "proj");
  const home = suite.dir("task-home");
  Bun.spawnSync(["mkdir", "-p", cwd]);
  writeFileSync(join(cwd, "README.md"), Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
  return { root, cwd, home };
}

const bodiesSince = (from: number) => suite.server.requests.slice(from).filter((r) => r.path.endsWith("/responses")).map((r) => r.body);

test("a child with its agent's narrower tools: no bash offered; a write outside refused as its parent's is; undo puts back what it wrote", async () => {
  const { root, cwd, home } = project();
  const from = suite.server.requests.length;
  const run = await runShiro(["-p", "--yolo", "--agents", AGENTS, "Have the editor write the notes."], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  // A denial anywhere in the tree is the run's (exit 4), as the parent's own would be.
  expect(run.code).toBe(4);
  const child = bodiesSince(from).filter((b) => b.instructions.startsWith(EDITOR));
  expect(child.length).toBeGreaterThan(0);
  for (const body of child) expect(body.tools.map((t: { name: string }) => t.name)).toEqual(["read_file", "write_file", "edit_file", "apply_patch"]);
  expect(readFileSync(join(cwd, "notes.md"), "utf8")).toBe("hello\n");
  expect(existsSync(join(root, "outside.txt"))).toBe(false);
  const childDenial = outputs(child.at(-1)!.input, "write_file").find((o) => (o.arguments as { path: string }).path === "../outside.txt")!.output;

  // The control: the parent's own write outside, with the same flags.
  const parentFrom = suite.server.requests.length;
  const parent = await runShiro(["-p", "--yolo", "Write outside yourself."], { cwd, home: suite.dir("task-home2"), env: { OPENAI_BASE_URL: suite.server.url } });
  expect(parent.code).toBe(4);
  const parentDenial = outputs(bodiesSince(parentFrom).at(-1)!.input, "write_file")[0]!.output;
  expect(childDenial).toStartWith("Denied: ");
  expect(childDenial).toBe(parentDenial);
  expect(existsSync(join(root, "outside.txt"))).toBe(false);

  // The child's write was its parent's turn's: undo of that turn puts the project back.
  const undo = await runShiro(["undo"], { cwd, home, env: {} });
  expect(undo.code).toBe(0);
  expect(existsSync(join(cwd, "notes.md"))).toBe(false);
});

test("--max-cost reached by the children stops every one of them and the run (exit 3)", async () => {
  const { cwd, home } = project();
  const from = suite.server.requests.length;
  const run = await runShiro(["-p", "--yolo", "--json", "--max-cost", "0.02", "--max-steps", "30", "Spend it all."], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  expect(run.code).toBe(3);
  const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
  expect(lines.filter((l) => l.type === "agent-end").map((l) => l.status)).toEqual(["max-cost", "max-cost"]);
  expect(lines.at(-1)).toMatchObject({ type: "result", status: "max-cost" });
  expect(lines.at(-1).costUsd).toBeGreaterThanOrEqual(0.02);
  // The budget was the tree's: the children stopped before their steps ran out (30 each).
  const childCalls = bodiesSince(from).filter((b) => firstUserText(b.input) === "Read forever.").length;
  expect(childCalls).toBeGreaterThan(2);
  expect(childCalls).toBeLessThan(60);
});

test("a child compacts its own context; the parent's requests never carry what the child read", async () => {
  const { cwd, home } = project();
  const FOX = "the quick brown fox jumps over the lazy dog ";
  for (let i = 0; i < 6; i++) writeFileSync(join(cwd, `big${i}.txt`), `big${i}: ${FOX.repeat(200)}`.slice(0, 8_000));
  const from = suite.server.requests.length;
  const run = await runShiro(["-p", "--yolo", "--json", "--compact-at", "4000", "Have a child read the big files."], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  expect(run.code).toBe(0);
  const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const [start] = lines.filter((l) => l.type === "agent-start");
  // The child's context was compacted, told as the child's; the parent's never was.
  expect(lines.filter((l) => l.type === "compacted").map((l) => l.agentId)).toContain(start.agentId);
  expect(lines.filter((l) => l.type === "compacted" && l.agentId === undefined)).toEqual([]);
  const bodies = bodiesSince(from);
  const child = bodies.filter((b) => firstUserText(b.input) === "Read big0.txt to big5.txt one by one.");
  expect(child).toHaveLength(7);
  const fullOutputs = (b: any) => outputs(b.input, "read_file").filter((o) => o.output.includes(FOX.repeat(100))).length;
  expect(fullOutputs(child.at(-1)!)).toBeLessThan(6);
  const parent = bodies.filter((b) => firstUserText(b.input) === "Have a child read the big files.");
  expect(parent).toHaveLength(2);
  for (const body of parent) expect(JSON.stringify(body.input)).not.toContain(FOX);
  expect(lines.at(-1)).toMatchObject({ type: "result", status: "done", text: "the child read them" });
});

test("a malformed --agents stops the run before anything is sent: one line naming what is wrong, exit 2", async () => {
  const { cwd, home } = project();
  const from = suite.server.requests.length;
  const run = await runShiro(["-p", "--agents", '{"Bad Name":{"description":"d","prompt":"p"}}', "Have the editor write the notes."], { cwd, home, env: { OPENAI_BASE_URL: suite.server.url } });
  expect(run.code).toBe(2);
  expect(run.stderr).toBe('shiro: --agents: "Bad Name" is not an agent name (lower-case letters, digits, _ and -)\n');
  expect(suite.server.requests.length).toBe(from);
});
