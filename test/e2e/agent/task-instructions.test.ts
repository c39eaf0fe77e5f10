/**
 * A child agent and the subfolders' instruction files, through the binary: it starts with what its
 * parent had taken on, what its own calls touch joins its instructions, and not its parent's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { firstUserText, sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const PARENT = "Read the api, then have a helper look at web.";
const CHILD = "Look at packages/web.";
const API = "API-RULE-2291";
const WEB = "WEB-RULE-7310";
const read = (path: string) => ({ name: "read_file", arguments: { path } });
const parent = sequenceModel([read("packages/api/src/a.ts"), { name: "task", arguments: { description: "look at web", prompt: CHILD, agent: null } }], "done");
const child = sequenceModel([read("packages/web/src/w.ts")], "web looks fine");
const model: ScriptedModel = (req) => (firstUserText(req.input) === CHILD ? child(req) : parent(req));

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { family: model } });
});
afterAll(() => server.stop());

test("a child starts with its parent's subfolder instructions; its own touches join its instructions only", async () => {
  const home = tempDir("task-instr-home");
  const cwd = tempDir("task-instr-repo");
  mkdirSync(join(cwd, ".git"));
  for (const [path, text] of Object.entries({ "packages/api/AGENTS.md": `${API}\n`, "packages/web/AGENTS.md": `${WEB}\n`, "packages/api/src/a.ts": "a\n", "packages/web/src/w.ts": "w\n" })) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  try {
    const from = server.requests.length;
    const r = await runShiro(["-p", "-m", "family", PARENT], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
    expect([r.code, r.stdout]).toEqual([0, "done\n"]);
    const bodies = server.requests.slice(from).map((q) => q.body);
    const ofChild = bodies.filter((b) => firstUserText(b.input) === CHILD).map((b) => b.instructions as string);
    const ofParent = bodies.filter((b) => firstUserText(b.input) === PARENT).map((b) => b.instructions as string);
    expect(ofChild).toHaveLength(2);
    expect(ofChild[0]).toContain(API);
    expect(ofChild[0]).not.toContain(WEB);
    expect(ofChild[1]).toContain(API);
    expect(ofChild[1]).toContain(WEB);
    expect(ofParent).toHaveLength(3);
    expect(ofParent[0]).not.toContain(API);
    for (const text of ofParent.slice(1)) {
      expect(text).toContain(API);
      expect(text).not.toContain(WEB);
    }
    // Each log says what its own agent was sent: the child's holds the inherited file and its own.
    const logs = readdirSync(join(home, "sessions")).filter((n) => n.endsWith(".jsonl")).map((n) => readFileSync(join(home, "sessions", n), "utf8").trim().split("\n").map((l) => JSON.parse(l)));
    const joined = (log: any[]) => log.filter((e) => e.type === "instructions").map((e) => e.path);
    const [childLog] = logs.filter((log) => log[0].parent);
    const [parentLog] = logs.filter((log) => !log[0].parent);
    expect(joined(childLog!)).toEqual(["packages/api/AGENTS.md", "packages/web/AGENTS.md"]);
    expect(joined(parentLog!)).toEqual(["packages/api/AGENTS.md"]);
  } finally {
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
  }
});
