/**
 * Issue 24, nothing lost: what a saved command's `` !`cmd` `` writes before its turn begins, and what
 * a PostToolUse hook (a formatter) writes after a read-only tool, is in the turn's checkpoint, so
 * `shiro undo` puts the project's bytes back — through the binary against the strict server.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../../support/binary.ts";
import { withPrintRun } from "../../support/print-run.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";
import { TEST_API_KEY } from "../../support/test-key.ts";
import { waitUntil } from "../../support/wait-until.ts";

ensureBinary();
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const ORIGINAL = "the person's own notes\n";

describe("undo puts back what ran around the model's calls", () => {
  test("a saved command's !`cmd` that overwrote a file: `shiro undo` after `/x` brings its bytes back", async () => {
    await withPrintRun(async ({ cwd, run }) => {
      const home = join(cwd, "..", "home");
      writeFileSync(join(cwd, "notes.txt"), ORIGINAL);
      await Bun.write(join(home, "commands", "x.md"), "Here is the regenerated file:\n!`printf 'generated\\n' > notes.txt && cat notes.txt`\n");
      const r = await run(["-p", "--yolo", "/x"], {});
      expect([r.code, r.stderr]).toEqual([0, ""]);
      expect(r.stdout).toContain("generated");
      expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("generated\n");

      const undo = await run(["undo"], {});
      expect([undo.code, undo.stderr]).toEqual([0, ""]);
      expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe(ORIGINAL);
    });
  });

  test("a PostToolUse formatter that rewrote a file after read_file is on record at once: killed mid-turn, `shiro undo` still brings its bytes back", async () => {
    const project = tempDir("undo-hook-proj");
    const home = tempDir("undo-hook-home");
    made.push(project, home);
    const started = join(home, "long-call-started");
    writeFileSync(join(project, "notes.txt"), ORIGINAL);
    const formatter = { matcher: "read_file", hooks: [{ type: "command", command: "printf 'formatted\\n' > notes.txt" }] };
    writeFileSync(join(home, "config.json"), JSON.stringify({ hooks: { PostToolUse: [formatter] } }));
    // The call after the read runs long and the process is killed in it: no end of turn records anything.
    const server = await startStrictServer({
      defaultModel: sequenceModel([{ name: "read_file", arguments: { path: "notes.txt" } }, { name: "bash", arguments: { command: `touch ${started}; sleep 30` } }], "done"),
    });
    try {
      const env = { PATH: process.env.PATH!, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: server.url, NO_COLOR: "1" };
      const proc = Bun.spawn([BINARY, "-p", "--yolo", "--sandbox", "off", "read notes.txt"], { cwd: project, env, stdout: "pipe", stderr: "pipe" });
      await waitUntil(() => existsSync(started), "the long call to start", 15_000);
      proc.kill("SIGKILL");
      await proc.exited;
    } finally {
      await server.stop();
    }
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe("formatted\n");
    const undo = await runShiro(["undo"], { cwd: project, home });
    expect(undo.stderr).toBe("1 tool call(s) were interrupted when this session last ran; the model is told their outcome is unknown\n");
    expect(undo.code).toBe(0);
    expect(readFileSync(join(project, "notes.txt"), "utf8")).toBe(ORIGINAL);
  }, 30_000);
});
