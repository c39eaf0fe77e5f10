/**
 * Issue 12: where the write tools really write. Every folder on the way is opened relative to the one
 * before and never through a symlink; a link is followed only by starting over from its target, and a
 * name inside the project may only lead inside it. Real files, real links.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyPatch } from "../../../../src/tools/files/apply-patch.ts";
import { commitChanges } from "../../../../src/tools/files/commit-changes.ts";
import { editFile } from "../../../../src/tools/files/edit-file.ts";
import { openSlot, type FileSlot } from "../../../../src/tools/files/file-slot.ts";
import { writeFile } from "../../../../src/tools/files/write-file.ts";
import { call, tempProject, toolError } from "../../../support/temp-project.ts";

let project: ReturnType<typeof tempProject>;
let outside: string;
afterEach(() => {
  project.cleanup();
  rmSync(outside, { recursive: true, force: true });
});
const at = (p: string) => join(project.root, p);
const read = (p: string) => readFileSync(at(p), "utf8");
const setup = (files: Record<string, string> = {}) => {
  project = tempProject(files);
  outside = mkdtempSync(join(tmpdir(), "shiro-outside-"));
  writeFileSync(join(outside, "keys"), "owner key\n");
};

describe("links", () => {
  test("a link inside the project is followed: the target changes and the link stays a link", async () => {
    setup({ "real/notes.md": "one\n", "docs/x": "" });
    symlinkSync("../real", at("docs/linked"));
    symlinkSync("real/notes.md", at("notes.md"));
    await call(writeFile, { path: "docs/linked/new.md", content: "new\n" }, project.ctx());
    expect(read("real/new.md")).toBe("new\n");
    await call(editFile, { path: "notes.md", old_string: "one", new_string: "two" }, project.ctx());
    expect(read("real/notes.md")).toBe("two\n");
    expect(lstatSync(at("notes.md")).isSymbolicLink()).toBe(true);
  });

  test("a link out of the project is refused by every write tool; nothing is written anywhere", async () => {
    setup({ "a.txt": "a\n" });
    symlinkSync(outside, at("sub"));
    const refused = `sub/keys leads outside the project: sub is a link to ${outside}. Nothing was changed; name the path it leads to if that file is meant (it is then judged as a path outside the project).`;
    expect(await toolError(writeFile, { path: "sub/keys", content: "attacker\n" }, project.ctx())).toBe(refused);
    expect(await toolError(writeFile, { path: "sub/new/keys", content: "attacker\n" }, project.ctx())).toStartWith("sub/new/keys leads outside the project: sub is a link to ");
    expect(await toolError(editFile, { path: "sub/keys", old_string: "owner", new_string: "attacker" }, project.ctx())).toBe(refused);
    const patch = ["*** Begin Patch", "*** Update File: a.txt", "-a", "+b", "*** Delete File: sub/keys", "*** End Patch"].join("\n");
    expect(await toolError(applyPatch, { patch }, project.ctx())).toBe(`The patch was not applied; no file was changed.\nDelete File sub/keys: ${refused}\nRead the files again and resend the whole patch with corrected hunks.`);
    expect(readdirSync(outside)).toEqual(["keys"]);
    expect(readFileSync(join(outside, "keys"), "utf8")).toBe("owner key\n");
    expect(read("a.txt")).toBe("a\n");
  });

  test("a path named outside the project (as approved) may go through links there", async () => {
    setup();
    mkdirSync(join(outside, "real"));
    symlinkSync(join(outside, "real"), join(outside, "via"));
    await call(writeFile, { path: join(outside, "via/out.txt"), content: "x\n" }, project.ctx());
    expect(readFileSync(join(outside, "real/out.txt"), "utf8")).toBe("x\n");
  });

  test("a loop of links, and a file where a folder should be, are named", async () => {
    setup({ "f": "" });
    symlinkSync("b", at("a"));
    symlinkSync("a", at("b"));
    expect(await toolError(writeFile, { path: "a/x", content: "" }, project.ctx())).toBe("a/x goes through more than 40 symlinks (a loop?). Nothing was changed.");
    expect(await toolError(writeFile, { path: "f/x", content: "" }, project.ctx())).toBe("f/x cannot exist: f is a file, not a folder.");
  });
});

const heldHere = (fd: string, dirs: readonly string[]) => {
  try {
    const target = readlinkSync(`/proc/self/fd/${fd}`);
    return dirs.some((dir) => target === dir || target.startsWith(`${dir}/`));
  } catch {
    return false; // closed meanwhile
  }
};

describe("folders held open are closed again", () => {
  test.skipIf(process.platform !== "linux")("after writes through links, refusals and previews, no descriptor is left open", async () => {
    setup({ "real/a.txt": "a\n" });
    symlinkSync("real", at("in"));
    symlinkSync(outside, at("out"));
    // Only what the tools opened: a descriptor into the project or the folder outside it (other files' leftovers come and go).
    const openFds = () => readdirSync("/proc/self/fd").filter((fd) => heldHere(fd, [project.root, outside])).length;
    await call(writeFile, { path: "in/a.txt", content: "warm\n" }, project.ctx());
    const before = openFds();
    // The count sees a folder held open there (it would see a leak).
    const probe = openSync(at("in"), "r");
    expect(openFds()).toBe(before + 1);
    closeSync(probe);
    for (let i = 0; i < 20; i++) {
      await call(writeFile, { path: "in/a.txt", content: `${i}\n` }, project.ctx());
      await call(editFile, { path: "in/a.txt", old_string: `${i}`, new_string: `${i}!` }, project.ctx());
      await toolError(writeFile, { path: "out/keys", content: "x" }, project.ctx());
      await toolError(editFile, { path: "in/missing.txt", old_string: "a", new_string: "b" }, project.ctx());
      await editFile.preview!({ path: "in/a.txt", old_string: "!", new_string: "?" }, project.ctx());
    }
    expect(openFds()).toBe(before);
  });
});

describe("where a write lands is judged again", () => {
  test("a link to a secret is refused with the reason writeRefused gives; the secret is untouched", async () => {
    setup({ ".env": "TOKEN=1\n" });
    symlinkSync(".env", at("notes.txt"));
    const ctx = project.ctx({ writeRefused: (path) => (path.endsWith("/.env") ? "a secret file." : undefined) });
    expect(await toolError(writeFile, { path: "notes.txt", content: "x" }, ctx)).toBe("notes.txt leads to .env, which may not be written: a secret file. Nothing was changed.");
    expect(await toolError(editFile, { path: "notes.txt", old_string: "TOKEN", new_string: "X" }, ctx)).toBe(
      "notes.txt leads to .env, which may not be written: a secret file. Nothing was changed.",
    );
    expect(read(".env")).toBe("TOKEN=1\n");
  });
});

describe("what is written", () => {
  test("a preview creates nothing; the write creates the folders; the mode is exact, whatever the umask", async () => {
    setup({ "run.sh": "echo 1\n" });
    chmodSync(at("run.sh"), 0o750);
    expect(await writeFile.preview!({ path: "deep/er/x.txt", content: "x\n" }, project.ctx())).toContain("+x");
    expect(existsSync(at("deep"))).toBe(false);
    const umask = process.umask(0o077);
    try {
      await call(writeFile, { path: "deep/er/x.txt", content: "x\n" }, project.ctx());
      await call(editFile, { path: "run.sh", old_string: "1", new_string: "2" }, project.ctx());
    } finally {
      process.umask(umask);
    }
    expect(statSync(at("deep/er/x.txt")).mode & 0o777).toBe(0o644);
    expect(statSync(at("run.sh")).mode & 0o777).toBe(0o750);
    expect(readdirSync(at("deep/er"))).toEqual(["x.txt"]);
  });

  test("a FIFO is refused at once, not waited on", async () => {
    setup();
    expect(Bun.spawnSync(["mkfifo", at("pipe")]).exitCode).toBe(0);
    expect(await toolError(writeFile, { path: "pipe", content: "x" }, project.ctx())).toBe("pipe is not a regular file (a device, socket or pipe); the file tools only change regular files.");
  });
});

describe("a folder replaced while it is held open", () => {
  // The write race test meets this only by chance: a racer renames another folder over the one held open.
  test("staging or committing in it is refused as changed meanwhile; neither folder gets a file", async () => {
    setup({ "sub/a.txt": "a\n" });
    const replaceSub = () => {
      rmSync(at("sub.other"), { recursive: true, force: true });
      mkdirSync(at("sub.other"));
      rmSync(at("sub"), { recursive: true });
      mkdirSync(at("sub"));
      renameSync(at("sub.other"), at("sub"));
    };
    const beforeStage = await openSlot(project.root, at("sub/a.txt"));
    replaceSub();
    expect(() => beforeStage.stage("attacker\n", 0o644)).toThrow(/^sub\/a\.txt was changed by something else meanwhile/);
    beforeStage.close();
    const beforeCommit = await openSlot(project.root, at("sub/a.txt"));
    const staged = beforeCommit.stage("attacker\n", 0o644);
    replaceSub();
    expect(() => staged.commit()).toThrow(/^sub\/a\.txt was changed by something else meanwhile/);
    beforeCommit.close();
    expect(readdirSync(project.root).sort()).toEqual(["sub"]);
    expect(readdirSync(at("sub"))).toEqual([]);
  });
});

describe("commitChanges", () => {
  test("a change that cannot be staged leaves every file as it was, and no temp file", async () => {
    setup({ "a.txt": "a\n" });
    const slot = await openSlot(project.root, at("a.txt"));
    const failing: FileSlot = { ...slot, stage: () => { throw new Error("disk full"); } };
    try {
      expect(() => commitChanges([{ slot, shown: "a.txt", data: "changed\n", mode: 0o644 }, { slot: failing, shown: "b.txt", data: "b\n", mode: 0o644 }])).toThrow(
        "Could not write b.txt: disk full. Nothing was changed.",
      );
    } finally {
      slot.close();
    }
    expect(read("a.txt")).toBe("a\n");
    expect(readdirSync(project.root)).toEqual(["a.txt"]);
  });
});
