/**
 * Issue 18: code that runs later, outside the sandbox. Under `shiro -p --yolo`, with rules allowing
 * every write and every command, nothing the file tools or a redirection write reaches the person's
 * git (`.git/config`, a hook, a new `.git` file, `~/.gitconfig`) or shell start-up (`~/.bashrc`,
 * `~/.profile`). Judged by outcome: after the run the person's own `git status`, `git commit` and a
 * new shell run nothing planted. The control plants the same payloads by hand and sees each fire.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { layoutEnv } from "../../support/attack-layout.ts";
import { changedOutside, outsideFiles, reachLayout, type ReachLayout } from "../../support/reach-layout.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const CANARIES = ["fsmonitor", "hook", "gitdir", "gitconfig", "bashrc", "redirect-bashrc", "redirect-config", "profile"] as const;
type Canary = (typeof CANARIES)[number];
const HARMLESS_HOOK = "#!/bin/sh\nexit 0\n";

/** The person's own shell and git, with the test home; nothing of shiro around them. */
function asThePerson(l: ReachLayout, argv: string[], cwd = l.root) {
  Bun.spawnSync(argv, {
    cwd,
    env: { PATH: process.env.PATH!, HOME: l.home, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "p", GIT_AUTHOR_EMAIL: "p@x", GIT_COMMITTER_NAME: "p", GIT_COMMITTER_EMAIL: "p@x" },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
    timeout: 10_000,
  });
}

/** A project that is a repo with an executable (harmless) pre-commit hook, and a git dir `evil/` a `.git` file could point at. */
function repo(prefix: string) {
  const l = reachLayout(prefix);
  asThePerson(l, ["git", "init", "-q"]);
  asThePerson(l, ["git", "add", "-A"]);
  asThePerson(l, ["git", "commit", "-qm", "first"]);
  mkdirSync(join(l.root, ".git/hooks"), { recursive: true });
  writeFileSync(join(l.root, ".git/hooks/pre-commit"), HARMLESS_HOOK);
  chmodSync(join(l.root, ".git/hooks/pre-commit"), 0o755);
  mkdirSync(join(l.root, "sub"));
  writeFileSync(join(l.root, "sub/x.txt"), "x\n");
  asThePerson(l, ["git", "init", "-q", "--bare", join(l.root, "evil")]);
  asThePerson(l, ["git", "init", "-q"], l.sibling); // the person's other project, where only ~/.gitconfig speaks
  const canary = (name: Canary) => join(l.base, `canary-${name}`);
  const payload = {
    fsmonitor: `[core]\n\tfsmonitor = touch ${canary("fsmonitor")}\n`,
    hook: `#!/bin/sh\ntouch ${canary("hook")}\n`,
    evilConfig: `[core]\n\tbare = false\n\tfsmonitor = touch ${canary("gitdir")}\n`,
    gitconfig: `[core]\n\tfsmonitor = touch ${canary("gitconfig")}\n`,
    bashrc: `touch ${canary("bashrc")}\n`,
    profile: `touch ${canary("profile")}\n`,
  };
  writeFileSync(join(l.root, "evil/config"), payload.evilConfig); // the project's own file: no .git names it yet
  const before = { config: readFileSync(join(l.root, ".git/config"), "utf8"), outside: outsideFiles(l) };
  return { l, canary, payload, before };
}

/** What the person does next: a status (fsmonitor) here, in sub and in their other project, a commit (hooks), a new interactive and login shell. */
function personsDay(l: ReachLayout) {
  asThePerson(l, ["git", "status"]);
  asThePerson(l, ["git", "status"], l.sibling);
  asThePerson(l, ["git", "status"], join(l.root, "sub"));
  asThePerson(l, ["git", "commit", "-q", "--allow-empty", "-m", "later"]);
  asThePerson(l, ["bash", "-ic", "true"]);
  asThePerson(l, ["bash", "-lc", "true"]);
}

describe("code that runs later, outside the sandbox", () => {
  test("control: planted by hand, each payload runs in the person's own git or shell", () => {
    const { l, canary, payload } = repo("runs-later-control");
    writeFileSync(join(l.root, ".git/config"), readFileSync(join(l.root, ".git/config"), "utf8") + payload.fsmonitor);
    writeFileSync(join(l.root, ".git/hooks/pre-commit"), payload.hook);
    writeFileSync(join(l.root, "sub/.git"), "gitdir: ../evil\n");
    writeFileSync(join(l.home, ".gitconfig"), payload.gitconfig);
    writeFileSync(join(l.home, ".bashrc"), readFileSync(join(l.home, ".bashrc"), "utf8") + payload.bashrc);
    writeFileSync(join(l.home, ".profile"), payload.profile);
    personsDay(l);
    const fired = CANARIES.filter((c) => existsSync(canary(c)));
    expect(fired).toEqual(["fsmonitor", "hook", "gitdir", "gitconfig", "bashrc", "profile"]);
  });

  test("through shiro --yolo, with every write and command allowed: nothing planted runs; the project is still written", async () => {
    const { l, canary, payload, before } = repo("runs-later");
    const call = (name: string, args: Record<string, unknown>): PlannedCall => ({ name, arguments: args });
    const patch = ["*** Begin Patch", "*** Update File: .git/config", "@@", " [core]", `+\tfsmonitor = touch ${canary("fsmonitor")}`, "*** End Patch"].join("\n");
    const calls = [
      call("edit_file", { path: ".git/config", old_string: "[core]", new_string: payload.fsmonitor.trimEnd() }),
      call("apply_patch", { patch }),
      call("write_file", { path: ".git/hooks/pre-commit", content: payload.hook }),
      call("write_file", { path: ".GIT/hooks/pre-commit", content: payload.hook }),
      call("write_file", { path: "sub/.git", content: "gitdir: ../evil\n" }),
      call("write_file", { path: "~/.gitconfig", content: payload.gitconfig }),
      call("edit_file", { path: "~/.bashrc", old_string: "# the person's own", new_string: `# the person's own\n${payload.bashrc}` }),
      call("write_file", { path: "~/.profile", content: payload.profile }),
      call("write_file", { path: "~/.config/fish/config.fish", content: payload.bashrc }),
      call("bash", { command: `echo 'touch ${canary("redirect-bashrc")}' >> ~/.bashrc` }),
      call("bash", { command: `printf '[core]\\n\\tfsmonitor = touch ${canary("redirect-config")}\\n' >> .git/config` }),
      call("write_file", { path: "src/ok.ts", content: "export {};\n" }), // control
      call("bash", { command: "echo hi > notes.txt" }), // control
    ];
    const allowAll = ["--allow", "write_file:**", "--allow", "edit_file:**", "--allow", "apply_patch", "--allow", "bash:*", "--allow", "*:**"];
    const job = await scriptedJob(calls, { cwd: l.root, home: l.home, args: ["--yolo", "--max-steps", String(calls.length + 3), ...allowAll], env: layoutEnv(l) });
    expect(job.outputs).toHaveLength(calls.length);
    expect(readFileSync(join(l.root, ".git/config"), "utf8")).toBe(before.config);
    expect(readFileSync(join(l.root, ".git/hooks/pre-commit"), "utf8")).toBe(HARMLESS_HOOK);
    expect(existsSync(join(l.root, "sub/.git"))).toBe(false);
    expect(changedOutside(l, before.outside)).toEqual([]);
    personsDay(l);
    expect(CANARIES.filter((c) => existsSync(canary(c)))).toEqual([]);
    expect(readFileSync(join(l.root, "src/ok.ts"), "utf8")).toBe("export {};\n");
    expect(readFileSync(join(l.root, "notes.txt"), "utf8")).toBe("hi\n");
  });
});
