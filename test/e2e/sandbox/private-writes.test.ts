/**
 * A write outside the project lands in a folder private to the command — bwrap's /tmp and hidden home,
 * Landlock's own TMPDIR — and is gone when it ends. Through the binary, on each real backend: the model is
 * told in the result where its files went, rather than reading a bare `Exit code: 0`; a write the
 * project keeps, or a temp file the command removed itself, gets no such line.
 */
import { afterAll, expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { attackLayout, eachBackend, layoutEnv, walk } from "../../support/attack-layout.ts";
import { scriptedJob } from "../../support/scripted-job.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
const GONE = "outside the project, into folders private to this command: they are gone now that it has ended.";
const KEEP = " To keep a file, write it in the project.";

const bases: string[] = [];
afterAll(() => bases.forEach((base) => rmSync(base, { recursive: true, force: true })));

function layout() {
  const l = attackLayout("private");
  bases.push(l.base);
  // A tool folder, as most homes have: bwrap shows it again, so the hidden home is there to write into.
  mkdirSync(join(l.home, ".local/bin"), { recursive: true });
  return l;
}

eachBackend("--yolo: files left in the private temp folder or the hidden home are named as gone; the project's and a removed temp file are not", async (backend) => {
  const l = layout();
  const calls = [
    bash('echo draft > "$TMPDIR/out.txt" && cat "$TMPDIR/out.txt"'),
    bash("echo remember > ~/notes.txt"),
    bash("echo kept > kept.txt"),
    bash('f=$(mktemp) && echo scratch > "$f" && rm "$f"'),
  ];
  const job = await scriptedJob(calls, { cwd: l.root, home: l.home, args: ["--yolo"], env: { ...layoutEnv(l), ...backend } });
  const [tmp, home, kept, removed] = job.outputs.map((o) => o.output);
  const tmpShown = backend.SHIRO_SANDBOX_BACKEND === "bwrap" ? "/tmp/out.txt" : "$TMPDIR/out.txt";
  expect(tmp).toBe(`draft\n\nExit code: 0\nIt wrote ${tmpShown} ${GONE}${KEEP}`);
  // Landlock cannot show the home empty, so it gives the command a home of its own: the same outcome as bubblewrap's.
  expect(home).toBe(`(no output)\n\nExit code: 0\nIt wrote ~/notes.txt ${GONE}${KEEP}`);
  expect([kept, removed]).toEqual(["(no output)\n\nExit code: 0", "(no output)\n\nExit code: 0"]);
  expect(readFileSync(join(l.root, "kept.txt"), "utf8")).toBe("kept\n");
  // Gone indeed: nothing reached the real home or the real temp folder.
  expect(existsSync(join(l.home, "notes.txt"))).toBe(false);
  expect(walk(l.tmp).filter((e) => e.kind !== "dir")).toEqual([]);
  // The person's line counts the output, not the sandbox's note.
  expect(job.stderr).toContain("  ✓ draft\n");
});

eachBackend("read-only (print mode's default): the write to the temp folder is named as gone, with no advice to write the project", async (backend) => {
  const l = layout();
  const job = await scriptedJob([bash('echo y > "$TMPDIR/scratch.txt"')], { cwd: l.root, home: l.home, env: { ...layoutEnv(l), ...backend } });
  const tmpShown = backend.SHIRO_SANDBOX_BACKEND === "bwrap" ? "/tmp" : "$TMPDIR";
  expect(job.outputs[0]!.output).toBe(
    `(no output)\n\nExit code: 0\nIt ran in a read-only sandbox (nobody approved writes for it): only ${tmpShown} and $HOME are writable, and they are private to this command.\nIt wrote ${tmpShown}/scratch.txt ${GONE}`,
  );
});

eachBackend("many files: five are named, and the rest said to be there", async (backend) => {
  const l = layout();
  const job = await scriptedJob([bash('for i in 1 2 3 4 5 6 7; do echo $i > "$TMPDIR/f$i"; done')], { cwd: l.root, home: l.home, args: ["--yolo"], env: { ...layoutEnv(l), ...backend } });
  const note = job.outputs[0]!.output.split("\n").at(-1)!;
  expect(note).toMatch(new RegExp(`^It wrote (\\S+/f\\d, ){4}\\S+/f\\d and more ${GONE.replace(/[.:]/g, "\\$&")}`));
});
