/**
 * Every coding tool through the compiled binary, in one scripted job: the files on disk end up right,
 * and the model reads each tool's result — including the failure messages it needs to recover.
 */
import { expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { read, secretProject } from "../../support/guard-projects.ts";
import { FINAL, outputOf, scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const APP = ["export function greet(name: string) {", '  return "hello " + name;', "}", "", "export const answer = 1;", "export const other = 1;", ""].join("\n");
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const MIXED_PATCH = patch(
  "*** Add File: notes/new.txt",
  "+brand new",
  "+second line",
  "*** Update File: notes/keep.txt",
  "@@",
  " alpha",
  "-beta",
  "+BETA",
  " gamma",
  "*** Update File: notes/rename-me.txt",
  "*** Move to: archive/renamed.txt",
  "@@",
  "-moving",
  "+moved",
  "*** Delete File: notes/old.txt",
);
const BAD_PATCH = patch("*** Add File: notes/never.txt", "+x", "*** Update File: notes/keep.txt", "@@", "-no such line", "+y");

const calls: PlannedCall[] = [
  { name: "edit_file", arguments: { path: "src/app.ts", old_string: '  return "hello " + name;', new_string: '  return "hi " + name;' } },
  { name: "edit_file", arguments: { path: "src/app.ts", old_string: "export function gret(name: string) {", new_string: "x" } },
  { name: "edit_file", arguments: { path: "src/app.ts", old_string: "= 1;", new_string: "= 2;" } },
  { name: "edit_file", arguments: { path: "src/ap.ts", old_string: "a", new_string: "b" } },
  { name: "apply_patch", arguments: { patch: MIXED_PATCH } },
  { name: "apply_patch", arguments: { patch: BAD_PATCH } },
  { name: "bash", arguments: { command: "cat notes/new.txt; echo to-stderr >&2; exit 3" } },
  { name: "bash", arguments: { command: "ls archive notes && test ! -e notes/old.txt" } },
  { name: "list_dir", arguments: {} },
  { name: "list_dir", arguments: { path: "nowhere" } },
  { name: "grep", arguments: { pattern: "\"hi \" \\+ name|BETA" } },
  { name: "grep", arguments: { pattern: "greet(" } },
  { name: "glob", arguments: { pattern: "**/*.txt" } },
  { name: "glob", arguments: { pattern: "*.ts", path: "src/app.ts" } },
  { name: "write_file", arguments: { path: "deep/new/dir/file.md", content: "# made\n" } },
  { name: "read_file", arguments: { path: "deep/new/dir/file.md" } },
];

test("coding tools end to end: edit_file, apply_patch, bash, list_dir, grep, glob, write_file, read_file", async () => {
  const p = secretProject({
    "src/app.ts": APP,
    "notes/keep.txt": "alpha\nbeta\ngamma\n",
    "notes/rename-me.txt": "moving\n",
    "notes/old.txt": "obsolete\n",
    ".gitignore": "build/\n",
    "build/out.js": "generated\n",
    "build/generated.txt": "BETA generated\n",
  });
  const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"] });
  const out = (name: string, match: (args: any) => boolean = () => true) => outputOf(job, name, match);

  // Tool failures are results the model reads, not a failed run.
  expect([job.code, job.stdout]).toEqual([0, FINAL + "\n"]);
  expect(job.outputs.map((o) => o.name)).toEqual(calls.map((c) => c.name));
  job.outputs.forEach((o, k) => expect(o.request).toBe(k + 1));

  // edit_file: one edit made; a miss names the nearest line; duplicates name their lines; a wrong path suggests the right one.
  expect(read(join(p.root, "src/app.ts"))).toBe(APP.replace('"hello "', '"hi "'));
  expect(out("edit_file", (a) => a.old_string.startsWith("  return"))).toBe("Edited src/app.ts: +1 −1 lines");
  expect(out("edit_file", (a) => a.old_string.includes("gret"))).toBe(
    'old_string was not found in src/app.ts. The closest line is 1: "export function greet(name: string) {". Read the file again and copy the exact text.',
  );
  expect(out("edit_file", (a) => a.old_string === "= 1;")).toBe(
    "old_string occurs 2 times in src/app.ts (lines 5, 6). Include more surrounding lines to make it unique, or set replace_all: true to change every occurrence.",
  );
  expect(out("edit_file", (a) => a.path === "src/ap.ts")).toBe("File not found: src/ap.ts. Did you mean: src/app.ts?");

  // apply_patch: add, update, move and delete in one patch; a patch with one bad hunk changes nothing.
  expect(read(join(p.root, "notes/new.txt"))).toBe("brand new\nsecond line\n");
  expect(read(join(p.root, "notes/keep.txt"))).toBe("alpha\nBETA\ngamma\n");
  expect(read(join(p.root, "archive/renamed.txt"))).toBe("moved\n");
  expect(existsSync(join(p.root, "notes/rename-me.txt"))).toBe(false);
  expect(existsSync(join(p.root, "notes/old.txt"))).toBe(false);
  expect(out("apply_patch", (a) => a.patch === MIXED_PATCH)).toBe(
    "Applied patch:\nA notes/new.txt (+2 lines)\nM notes/keep.txt (+1 −1 lines)\nR notes/rename-me.txt → archive/renamed.txt (+1 −1 lines)\nD notes/old.txt",
  );
  expect(out("apply_patch", (a) => a.patch === BAD_PATCH)).toBe(
    "The patch was not applied; no file was changed.\nUpdate File notes/keep.txt: hunk 1 did not match — these lines were not found:\nno such line\n" +
      "Read the files again and resend the whole patch with corrected hunks.",
  );
  expect(existsSync(join(p.root, "notes/never.txt"))).toBe(false);

  // bash: stdout and stderr together, the exit code, and it sees what the other tools wrote.
  expect(out("bash", (a) => a.command.startsWith("cat"))).toBe("brand new\nsecond line\nto-stderr\n\nExit code: 3");
  expect(out("bash", (a) => a.command.startsWith("ls"))).toBe("archive:\nrenamed.txt\n\nnotes:\nkeep.txt\nnew.txt\n\nExit code: 0");

  // list_dir, grep, glob: gitignored build/ stays hidden; failures say what to do.
  const tree = out("list_dir", (a) => a.path === undefined);
  expect(tree.split("\n")).toEqual(expect.arrayContaining(["./", "  archive/", "    renamed.txt", "  notes/", "    keep.txt", "  src/", "    app.ts"]));
  expect(tree).not.toContain("build");
  expect(out("list_dir", (a) => a.path === "nowhere")).toBe("Folder not found: nowhere.");
  expect(out("grep", (a) => a.pattern.endsWith("BETA"))).toBe('notes/keep.txt:2: BETA\nsrc/app.ts:2:   return "hi " + name;');
  expect(out("grep", (a) => a.pattern === "greet(")).toStartWith('Invalid regular expression "greet(": ');
  expect(out("glob", (a) => a.path === undefined)).toBe("archive/renamed.txt\nnotes/keep.txt\nnotes/new.txt\ntemplate.txt");
  expect(out("glob", (a) => a.path === "src/app.ts")).toBe("src/app.ts is not a folder. Give glob a folder as `path` (or leave it out for the project root).");

  // write_file creates missing folders; read_file numbers the lines.
  expect(out("write_file")).toBe("Created deep/new/dir/file.md (1 line)");
  expect(statSync(join(p.root, "deep/new/dir/file.md")).mode & 0o777).toBe(0o644);
  expect(out("read_file")).toBe("     1\t# made\n");
});
