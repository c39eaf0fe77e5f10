/**
 * The rules do exactly what they say: a command is matched with its program normalised (deny and ask
 * see through every wrapper, allow only through those that change nothing), a file it writes is judged
 * as a write_file of it, and git's settings that run code are commands of their own.
 */
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { callSubjects } from "../../../src/guard/call-subjects.ts";
import { createGuard } from "../../../src/guard/guard.ts";
import { judgeSubject, stricter } from "../../../src/guard/permissions.ts";
import { diskEnv } from "../../../src/guard/resolve-path.ts";
import type { Rule } from "../../../src/guard/rules.ts";
import { SessionAllows } from "../../../src/guard/session-allows.ts";
import type { GateCall, Verdict } from "../../../src/guard/verdict.ts";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-forms-root-")));
const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-forms-home-")));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});
const env = diskEnv(root, home);

const bashCall = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: {}, root, subject: { command } });
const bash = (decision: Rule["decision"], pattern: string): Rule => ({ decision, tool: "bash", pattern });
const judged = (command: string, rules: Rule[]) => callSubjects(bashCall(command), env).map((item) => ({ item, verdict: judgeSubject("bash", item, rules, new SessionAllows(), home) }));
const decision = (command: string, rules: Rule[]) => judged(command, rules).map((j) => j.verdict).reduce(stricter, { decision: "allow" } as Verdict).decision;
/** What a print-mode denial would name: the subjects still needing approval. */
const asking = (command: string, rules: Rule[]) => judged(command, rules).filter((j) => j.verdict.decision === "ask").map((j) => j.item.label + (j.item.fallback.decision === "ask" && j.item.fallback.reason ? ` (${j.item.fallback.reason})` : ""));

describe("a file an allowed command writes is judged as a write_file of it", () => {
  const rules = [bash("allow", "git *"), bash("allow", "ls *"), bash("allow", "curl *"), bash("allow", "sort *"), bash("allow", "gcc *"), bash("allow", "cp *")];
  const table: [string, string[]][] = [
    ["git --version > ~/notes.txt", [`write_file ${home}/notes.txt (outside the project)`]],
    ["ls > src/x.ts", ["write_file src/x.ts"]],
    ["ls >> notes.md 2>&1", ["write_file notes.md"]],
    ["git diff --output=x.patch", ["write_file x.patch"]],
    ["git diff --output x.patch HEAD~1", ["write_file x.patch"]],
    ["git -C sub log -p --output=../log.txt", ["write_file log.txt"]],
    ["git format-patch -o patches HEAD~2", ["write_file patches"]],
    ["git archive -o out.tar HEAD", ["write_file out.tar"]],
    ["git status | tee status.txt", ["tee status.txt", "write_file status.txt"]],
    ["curl -so page.html http://127.0.0.1/", ["write_file page.html"]],
    ["sort -o sorted.txt list.txt", ["write_file sorted.txt"]],
    ["gcc -o a.out main.c", ["write_file a.out"]],
    ["cp a.txt ~/b.txt", [`write_file ${home}/b.txt (outside the project)`]],
  ];
  test.each(table)("%p asks for %p", (command, expected) => {
    expect(asking(command, rules)).toEqual(expected);
  });

  test("streams are no files: `> /dev/null`, `2>&1`, `>&2`, `2>/dev/stderr` need nothing more than the command", () => {
    for (const command of ["ls > /dev/null", "ls 2>&1", "ls >&2", "git status 2>/dev/stderr", "ls &> /dev/null", "curl -o /dev/null http://127.0.0.1/"]) expect([command, decision(command, rules)]).toEqual([command, "allow"]);
  });

  test("a program's own operand inside the project is covered by the command's rule (`cp a b` under `cp *`)", () => {
    expect(decision("cp a.txt b.txt", rules)).toBe("allow");
    expect(decision("cp a.txt b.txt", [...rules, { decision: "deny", tool: "write_file", pattern: "b.txt" }])).toBe("deny");
  });

  test("the user's write_file rules decide: an allow lets the write through, a deny (or a rule for every tool) stops it", () => {
    expect(decision("ls > src/x.ts", [...rules, { decision: "allow", tool: "write_file", pattern: "src/**" }])).toBe("allow");
    expect(decision("git -C sub diff --output=x.patch", [...rules, { decision: "allow", tool: "write_file", pattern: "sub/*.patch" }])).toBe("allow");
    expect(decision("echo x > bun.lock", [bash("allow", "*"), { decision: "allow", pattern: "**" }, { decision: "deny", pattern: "**/*.lock" }])).toBe("deny");
    expect(decision("echo x > bun.lock", [bash("allow", "*"), { decision: "deny", tool: "edit_file", pattern: "**" }])).toBe("ask");
  });

  test("a secret written by redirection is denied by the defaults, whatever allows the command", () => {
    expect(judged("git diff --output=.env", [bash("allow", "*")]).map((j) => j.verdict.decision)).toContain("deny");
  });
});

describe("commands are matched with their program normalised", () => {
  const deleters = [
    "rm a", "/bin/rm a", "/usr/bin/rm a", "command rm a", "env rm a", "env -i FOO=1 rm a", "xargs rm < list", "xargs -0 -n 1 rm < list",
    "nohup rm a", "timeout 5 rm a", "timeout -s KILL 5 rm a", "sudo rm a", "sudo -u root rm a", "exec rm a", "\\rm a", "'rm' a", "RM a",
    "nice -n 5 rm a", "stdbuf -oL rm a", "busybox rm a", "unlink a", "find . -name a -delete", "find . -name a -exec rm {} \\;",
    "find . -exec /bin/rm -f {} +", "shred -u a", "echo a | xargs rm", "bash -c 'rm a'", "if true; then rm a; fi",
  ];
  test.each(deleters)("deny `rm *` stops %p", (command) => {
    expect(decision(command, [bash("allow", "*"), bash("deny", "rm *")])).toBe("deny");
  });

  const lookalikes = ["command -v rm", "command -V rm", "echo rm a", "grep rm notes.txt", "rmdir empty", "git rm a", "find . -name rm", "shred -n 3 a"];
  test.each(lookalikes)("deny `rm *` does not stop %p", (command) => {
    expect(decision(command, [bash("allow", "*"), bash("deny", "rm *")])).toBe("allow");
  });

  test("an allow reaches through wrappers that change nothing, never through sudo, VAR=, env X=1 or a program of the project", () => {
    const rules = [bash("allow", "rm *")];
    for (const command of ["/bin/rm a", "command rm a", "nohup rm a", "timeout 5 rm a", "exec rm a", "\\rm a", "xargs rm < list"]) expect([command, decision(command, rules)]).toEqual([command, "allow"]);
    for (const command of ["sudo rm a", "doas rm a", "FOO=1 rm a", "env LD_PRELOAD=x.so rm a", "./rm a", "bin/rm a", "~/bin/rm a", "RM a", "unlink a"]) expect([command, decision(command, rules)]).toEqual([command, "ask"]);
  });

  test("git's global options are stripped: `git -C . push` is `git push` to a deny rule and to an allow rule", () => {
    for (const command of ["git -C . push", "git -C sub push origin main", "git --git-dir=.git push", "git --no-pager push", "git -c user.name=x push", "git -c alias.p=push p", "/usr/bin/git push"])
      expect([command, decision(command, [bash("allow", "git *"), bash("deny", "git push *")])]).toEqual([command, "deny"]);
    expect(decision("git -C sub push origin", [bash("allow", "git push *")])).toBe("allow");
    expect(decision("git -C sub log", [bash("allow", "git push *")])).toBe("ask");
  });

  test("a rule written for the command as written still matches it", () => {
    expect(decision("git -C sub push", [bash("allow", "git -C sub *")])).toBe("allow");
    expect(decision("sudo rm a", [bash("allow", "sudo rm *")])).toBe("allow");
  });

  test("the last matching rule wins across the forms of a command", () => {
    expect(decision("sudo rm a", [bash("allow", "sudo *"), bash("deny", "rm *")])).toBe("deny");
    expect(decision("sudo rm a", [bash("deny", "rm *"), bash("allow", "sudo *")])).toBe("allow");
    expect(decision("/bin/rm a", [bash("allow", "*"), bash("ask", "rm *")])).toBe("ask");
  });

  test("loop keywords and builtins that do nothing need no rule", () => {
    const rules = [bash("allow", "echo *"), bash("allow", "npm test *")];
    for (const command of ["for i in 1 2; do echo $i; done", "while true; do echo x; done", "if [ -f x ]; then echo y; fi", "npm test || true", "case $1 in a) echo a;; esac", "{ echo a; }", "cd sub && popd && echo x"])
      expect([command, decision(command, rules)]).toEqual([command, "allow"]);
    expect(asking("for f in $(ls); do echo $f; done", rules)).toEqual(["ls"]);
    expect(asking("./true && : > log.txt", rules)).toEqual(["./true", ": > log.txt", "write_file log.txt"]);
  });
});

describe("git settings that run code need their own approval", () => {
  const gitAllowed = [bash("allow", "git *")];
  const table: [string, string][] = [
    ["git -c core.pager='touch pwned' log", "touch pwned"],
    ["git -c core.fsmonitor='touch pwned' status", "touch pwned"],
    ["git -c diff.external=./differ diff", "./differ"],
    ["git -c diff.bin.textconv='sh x.sh' diff", "sh x.sh"],
    ["git -c filter.lfs.clean='curl -d @- http://127.0.0.1/' add a", "curl -d @- http://127.0.0.1/"],
    ["git -c core.editor=vim commit", "vim"],
    ["git -c sequence.editor='sed -n p' rebase -i HEAD~2", "sed -n p"],
    ["git -c core.sshCommand='ssh -i key' fetch", "ssh -i key"],
    ["git -c gpg.program=./gpg commit -S -m x", "./gpg"],
    ["git -c credential.helper='!touch pwned' fetch", "touch pwned"],
    ["git -c CORE.HOOKSPATH=.hooks commit -m x", ".hooks"],
    ["git -c include.path=../evil.cfg log", "../evil.cfg"],
    ["git --config-env=core.pager=PAGER_CMD log", "$PAGER_CMD"],
    ["git --exec-path=./bin status", "./bin/git-status"],
    ["git -c alias.x='!touch pwned' x", "touch pwned"],
  ];
  test.each(table)("%p asks about %p under `git *`", (command, runs) => {
    expect(asking(command, gitAllowed)).toEqual([runs]);
  });

  test("settings that run nothing, or run git's own programs, stay under `git *`", () => {
    for (const command of ["git -c user.name=x commit -m y", "git -c core.fsmonitor=false status", "git -c credential.helper=store fetch", "git -c core.pager= log", "git -c alias.x='!touch pwned' status"])
      expect([command, decision(command, gitAllowed)]).toEqual([command, "allow"]);
  });

  test("what a setting runs meets the deny rules, and the guard", () => {
    expect(decision("git -c core.pager='rm notes.txt' log", [bash("allow", "*"), bash("deny", "rm *")])).toBe("deny");
    const guard = createGuard({ home });
    expect(guard({ tool: "bash", kind: "exec", args: {}, root, subject: { command: "git -c core.fsmonitor='rm -rf ~' status" } })).toMatchObject({ decision: "deny", rule: `guard: destructive command rm -rf ${home}` });
  });
});
