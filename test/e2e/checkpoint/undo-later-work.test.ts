/**
 * Issue 20, never lose the person's later work: an undo compares each file with what the undone turn
 * left, and a file changed since stops it with nothing changed — unless --force, which keeps a copy
 * of what it overwrites. And `shiro -c` after an undo never sends the undone turn again.
 */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { lastUserText } from "../../support/scripts.ts";
import type { ScriptedModel } from "../../support/turn.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import { snapshot, undoProject } from "../../support/undo-project.ts";
import { ensureBinary } from "../../support/binary.ts";

ensureBinary();
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fixture() {
  const fx = undoProject();
  made.push(fx.base);
  const shiroHome = join(fx.home, ".shiro-neko");
  mkdirSync(shiroHome);
  return { ...fx, shiroHome, env: { SHIRO_HOME: shiroHome, HOME: fx.home } };
}

const turn = [{ name: "bash", arguments: { command: "echo 'the turn wrote this' > src/main.ts && rm docs/guide.md" } }];

test("a file the person edited after the turn stops the undo: nothing changes, the person's bytes stay, the file is named", async () => {
  const fx = fixture();
  const before = snapshot(fx.project);
  expect((await scriptedJob(turn, { cwd: fx.project, args: ["--yolo"], env: fx.env })).code).toBe(0);
  writeFileSync(join(fx.project, "src/main.ts"), "the person's own edit, made after the turn\n");
  const afterEdit = snapshot(fx.project);

  const undo = await runShiro(["undo"], { cwd: fx.project, env: fx.env });
  expect(undo.code).toBe(1);
  expect(undo.stderr).toContain("src/main.ts");
  expect(undo.stderr.trim().split("\n")).toHaveLength(1);
  // Nothing changed: not the edited file, and not the one the turn removed either.
  expect(snapshot(fx.project)).toEqual(afterEdit);

  // --force: the turn's files come back, and the person's edit is kept where the undo says.
  const forced = await runShiro(["undo", "--force", "--json"], { cwd: fx.project, env: fx.env });
  expect(forced.code).toBe(0);
  const done = JSON.parse(forced.stdout);
  expect(done.ok).toBe(true);
  expect(readFileSync(join(done.kept, "src/main.ts"), "utf8")).toBe("the person's own edit, made after the turn\n");
  expect(done.kept.startsWith(fx.shiroHome)).toBe(true);
  expect(snapshot(fx.project)).toEqual(before);
}, 60_000);

test("a file the turn removed and the person made again also stops it", async () => {
  const fx = fixture();
  await scriptedJob(turn, { cwd: fx.project, args: ["--yolo"], env: fx.env });
  writeFileSync(join(fx.project, "docs/guide.md"), "rewritten by the person\n");
  const undo = await runShiro(["undo"], { cwd: fx.project, env: fx.env });
  expect(undo.code).toBe(1);
  expect(undo.stderr).toContain("docs/guide.md");
  expect(readFileSync(join(fx.project, "docs/guide.md"), "utf8")).toBe("rewritten by the person\n");
  expect(readFileSync(join(fx.project, "src/main.ts"), "utf8")).toBe("the turn wrote this\n");
}, 60_000);

test("two turns, undo, then -c: the undone prompt is not sent again, the first turn's is; the second turn's files are back", async () => {
  const fx = fixture();
  // Each prompt gets its own command, once: the first writes first.txt, the second second.txt (and removes notes.txt).
  const model: ScriptedModel = ({ input }) => {
    const last = lastUserText(input);
    const userAt = input.findLastIndex((item: any) => item.role === "user");
    const ran = input.slice(userAt).some((item: any) => item.type === "function_call_output");
    const command = last.includes("FIRST") ? "echo first > first.txt" : last.includes("SECOND") ? "echo second > second.txt && rm notes.txt" : undefined;
    return command && !ran ? { calls: [{ name: "bash", arguments: { command } }] } : { text: "done" };
  };
  const server = await startStrictServer({ defaultModel: model });
  try {
    const env = { ...fx.env, OPENAI_BASE_URL: server.url };
    expect((await runShiro(["-p", "--yolo", "FIRST-PROMPT-alpha"], { cwd: fx.project, env })).code).toBe(0);
    const afterFirst = snapshot(fx.project);
    expect(readFileSync(join(fx.project, "first.txt"), "utf8")).toBe("first\n");
    expect((await runShiro(["-p", "--yolo", "-c", "SECOND-PROMPT-beta"], { cwd: fx.project, env })).code).toBe(0);
    expect(existsSync(join(fx.project, "second.txt"))).toBe(true);

    const list = await runShiro(["undo", "--list", "--json"], { cwd: fx.project, env });
    const turns = JSON.parse(list.stdout).turns;
    expect(turns.map((t: any) => t.prompt)).toEqual(["FIRST-PROMPT-alpha", "SECOND-PROMPT-beta"]);
    expect(turns[1].added).toContain("second.txt");

    const undo = await runShiro(["undo"], { cwd: fx.project, env });
    expect(undo.code).toBe(0);
    expect(snapshot(fx.project)).toEqual(afterFirst);

    server.requests.length = 0;
    expect((await runShiro(["-p", "-c", "THIRD-PROMPT-gamma"], { cwd: fx.project, env })).code).toBe(0);
    const sent = server.requests.map((r) => r.raw).join("\n");
    expect(sent).toContain("FIRST-PROMPT-alpha");
    expect(sent).toContain("THIRD-PROMPT-gamma");
    expect(sent).not.toContain("SECOND-PROMPT-beta");
    expect(sent).not.toContain("second.txt");
  } finally {
    await server.stop();
  }
}, 60_000);

test("--to rewinds several turns of the session -r names, past a newer session in the folder; --list then shows none", async () => {
  const fx = fixture();
  const before = snapshot(fx.project);
  const yolo = { cwd: fx.project, args: ["--yolo"], env: fx.env };
  expect((await scriptedJob([{ name: "bash", arguments: { command: "echo one > one.txt && rm README.md" } }], yolo)).code).toBe(0);
  const sessions = await runShiro(["sessions", "--json"], { cwd: fx.project, env: fx.env });
  const id = JSON.parse(sessions.stdout)[0].id as string;
  const prefix = id.slice(0, 13);
  expect((await scriptedJob([{ name: "bash", arguments: { command: "echo two >> one.txt && rm notes.txt" } }], { ...yolo, args: ["--yolo", "-r", prefix] })).code).toBe(0);
  // A newer session in the same folder: -r must reach past it, and its file is not this undo's to take.
  expect((await scriptedJob([{ name: "bash", arguments: { command: "echo other > other.txt" } }], yolo)).code).toBe(0);

  const listed = JSON.parse((await runShiro(["undo", "--list", "--json", "-r", prefix], { cwd: fx.project, env: fx.env })).stdout);
  expect(listed.session).toBe(id);
  expect(listed.turns.map((t: any) => [t.turn, t.added, t.changed, t.removed])).toEqual([
    [1, ["one.txt"], [], ["README.md"]],
    [2, [], ["one.txt"], ["notes.txt"]],
  ]);
  const undo = await runShiro(["undo", "--to", "1", "-r", prefix, "--json"], { cwd: fx.project, env: fx.env });
  expect(undo.code).toBe(0);
  expect(JSON.parse(undo.stdout).turns).toEqual([1, 2]);
  expect(readFileSync(join(fx.project, "other.txt"), "utf8")).toBe("other\n");
  rmSync(join(fx.project, "other.txt"));
  expect(snapshot(fx.project)).toEqual(before);
  expect(JSON.parse((await runShiro(["undo", "--list", "--json", "-r", prefix], { cwd: fx.project, env: fx.env })).stdout).turns).toEqual([]);
  // A turn not in the history: one line, exit 1, nothing changed.
  const none = await runShiro(["undo", "--to", "7", "-r", prefix], { cwd: fx.project, env: fx.env });
  expect(none.code).toBe(1);
  expect(none.stderr.trim().split("\n")).toHaveLength(1);
  expect(snapshot(fx.project)).toEqual(before);
}, 60_000);

test("a file over the per-file cap that a turn made is not lost by its undo: it is moved aside, and the undo says where", async () => {
  const fx = fixture();
  const before = snapshot(fx.project);
  // 17 MiB: over the 16 MiB a checkpoint keeps, so no stored copy of it exists.
  const made = await scriptedJob([{ name: "bash", arguments: { command: "head -c 17825792 /dev/urandom > build.bin && echo changed >> README.md" } }], { cwd: fx.project, args: ["--yolo"], env: fx.env });
  expect(made.code).toBe(0);
  const bytes = readFileSync(join(fx.project, "build.bin"));
  expect(bytes.length).toBe(17825792);
  const undo = await runShiro(["undo", "--json"], { cwd: fx.project, env: fx.env });
  expect(undo.code).toBe(0);
  const done = JSON.parse(undo.stdout);
  expect(done.removed).toContain("build.bin");
  expect(readFileSync(join(done.kept, "build.bin")).equals(bytes)).toBe(true);
  expect(snapshot(fx.project)).toEqual(before);
}, 60_000);

test("corrupt checkpoint files are skipped with one warning each, and nothing is lost: the saved look is rebuilt, an unreadable record leaves its turn's files alone", async () => {
  const fx = fixture();
  expect((await scriptedJob([{ name: "bash", arguments: { command: "echo one > one.txt" } }], { cwd: fx.project, args: ["--yolo"], env: fx.env })).code).toBe(0);
  const checkpoints = join(fx.shiroHome, "checkpoints");
  const [record] = readdirSync(join(checkpoints, "turns"), { recursive: true, encoding: "utf8" }).filter((p) => p.endsWith(".json"));
  writeFileSync(join(checkpoints, "turns", record!), "{ not json");
  const [cache] = readdirSync(join(checkpoints, "projects"));
  writeFileSync(join(checkpoints, "projects", cache!), "[1, 2");
  const list = await runShiro(["undo", "--list", "--json"], { cwd: fx.project, env: fx.env });
  expect(list.code).toBe(0);
  expect(list.stderr.trim().split("\n")).toHaveLength(1);
  expect(list.stderr).toContain(record!);
  expect(JSON.parse(list.stdout).turns[0].added).toEqual([]);
  // The undo takes the turn out of the history but, with its record unreadable, changes no file.
  const undo = await runShiro(["undo"], { cwd: fx.project, env: fx.env });
  expect(undo.code).toBe(0);
  expect(readFileSync(join(fx.project, "one.txt"), "utf8")).toBe("one\n");
  // A later run rebuilds the unreadable saved look, saying so once, and its turn is undone as usual.
  const next = await scriptedJob([{ name: "bash", arguments: { command: "echo two > two.txt" } }], { cwd: fx.project, args: ["--yolo"], env: fx.env });
  expect(next.code).toBe(0);
  expect(next.stderr.split("\n").filter((l) => l.includes("checkpoint cache"))).toHaveLength(1);
  expect((await runShiro(["undo"], { cwd: fx.project, env: fx.env })).code).toBe(0);
  expect(existsSync(join(fx.project, "two.txt"))).toBe(false);
  expect(readFileSync(join(fx.project, "one.txt"), "utf8")).toBe("one\n");
}, 60_000);

test("the newest session that only asked is passed over: `shiro undo` puts back what the one before wrote and names it; --list's id pastes back into -r", async () => {
  const fx = fixture();
  const before = snapshot(fx.project);
  expect((await scriptedJob(turn, { cwd: fx.project, args: ["--yolo"], env: fx.env })).code).toBe(0);
  const server = await startStrictServer({ defaultModel: () => ({ text: "It is a small project." }) });
  try {
    expect((await runShiro(["-p", "what is this project?"], { cwd: fx.project, env: { ...fx.env, OPENAI_BASE_URL: server.url } })).code).toBe(0);
  } finally {
    await server.stop();
  }
  const list = await runShiro(["undo", "--list"], { cwd: fx.project, env: fx.env });
  const id = /^session (\S+) · /.exec(list.stdout)?.[1];
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect((await runShiro(["undo", "--list", "-r", id!], { cwd: fx.project, env: fx.env })).stdout).toBe(list.stdout);

  const undo = await runShiro(["undo"], { cwd: fx.project, env: fx.env });
  expect(undo.code).toBe(0);
  expect(undo.stdout).toStartWith(`session ${id}, the newest here that changed files: undoing from turn 1`);
  expect(snapshot(fx.project)).toEqual(before);
}, 60_000);
