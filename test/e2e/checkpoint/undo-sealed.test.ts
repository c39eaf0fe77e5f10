/**
 * Issue 20: the checkpoint store holds every file, secrets too, so nothing of it may reach a tool or
 * the model — not even where a person allowed every read — and an --ephemeral run keeps it in a
 * temporary folder that is gone when the run ends. Asserted on what the model was sent.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary } from "../../support/binary.ts";
import { runShiro } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { undoProject } from "../../support/undo-project.ts";

ensureBinary();
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const CANARY = "PERSON-WORK-canary-7f3a9c";

test("what undo --force kept, the blobs and the store's key reach no tool, with every read and command allowed", async () => {
  const fx = undoProject();
  made.push(fx.base);
  const shiroHome = join(fx.home, ".shiro-neko");
  mkdirSync(shiroHome);
  const env = { SHIRO_HOME: shiroHome, HOME: fx.home };
  await scriptedJob([{ name: "bash", arguments: { command: "echo turn > src/main.ts" } }], { cwd: fx.project, args: ["--yolo"], env });
  writeFileSync(join(fx.project, "src/main.ts"), `${CANARY}\n`);
  const forced = JSON.parse((await runShiro(["undo", "--force", "--json"], { cwd: fx.project, env })).stdout);
  expect(readFileSync(join(forced.kept, "src/main.ts"), "utf8")).toContain(CANARY);
  expect(readFileSync(join(fx.project, "src/main.ts"), "utf8")).not.toContain(CANARY);
  const key = readFileSync(join(shiroHome, "checkpoints/key"));
  const keptFile = join(forced.kept, "src/main.ts");
  const blob = readdirSync(join(shiroHome, "checkpoints/blobs"), { recursive: true, encoding: "utf8" }).find((p) => p.length > 10)!;

  const job = await scriptedJob(
    [
      { name: "read_file", arguments: { path: keptFile } },
      { name: "read_file", arguments: { path: join(shiroHome, "checkpoints/key") } },
      { name: "read_file", arguments: { path: join(shiroHome, "checkpoints/blobs", blob) } },
      { name: "grep", arguments: { pattern: "canary", path: shiroHome } },
      { name: "bash", arguments: { command: `cat ${keptFile}; grep -r canary ${shiroHome}; xxd -p ${shiroHome}/checkpoints/key; base64 ${shiroHome}/checkpoints/key` } },
    ],
    { cwd: fx.project, args: ["--yolo", "--allow", "read_file:**", "--allow", "grep:**", "--allow", "bash:*"], env },
  );
  // Every call was made and answered (the file tools refused, the sandbox shows the command no such folder).
  expect(job.outputs).toHaveLength(5);
  const sent = job.requests.map((r) => r.raw).join("\n");
  expect(sent).not.toContain(CANARY);
  expect(sent).not.toContain(key.toString("hex"));
  expect(sent).not.toContain(key.toString("base64"));
  // No file under $SHIRO_HOME but the kept copy holds the person's bytes (the blobs are sealed).
  const holding = readdirSync(shiroHome, { recursive: true, encoding: "utf8" }).filter((p) => {
    try {
      return readFileSync(join(shiroHome, p), "latin1").includes(CANARY);
    } catch {
      return false;
    }
  });
  expect(holding).toEqual([join("undo-kept", forced.kept.split("/undo-kept/")[1], "src/main.ts")]);
}, 60_000);

test("--ephemeral: checkpoints live in a temporary folder for the run and are gone after it; $SHIRO_HOME gets none", async () => {
  const fx = undoProject();
  made.push(fx.base);
  const shiroHome = join(fx.home, ".shiro-neko");
  const tmp = join(fx.base, "tmp");
  mkdirSync(shiroHome);
  mkdirSync(tmp);
  const job = await scriptedJob([{ name: "bash", arguments: { command: "echo changed > src/main.ts" } }], { cwd: fx.project, args: ["--yolo", "--ephemeral"], env: { SHIRO_HOME: shiroHome, HOME: fx.home, TMPDIR: tmp } });
  expect(job.code).toBe(0);
  expect(readFileSync(join(fx.project, "src/main.ts"), "utf8")).toBe("changed\n");
  expect(readdirSync(shiroHome)).toEqual([]);
  expect(readdirSync(tmp)).toEqual([]);
}, 60_000);
