/**
 * Issue 18: the file tools reach the project and the added folders; the home, `$SHIRO_HOME`, the
 * project's parent and siblings open only to a person (--yolo does not answer); a write where code
 * runs later opens only to a rule naming it; a computed program meets the deny rules naming programs.
 */
import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { callSubjects } from "../../../src/guard/call-subjects.ts";
import { judgeSubject, stricter } from "../../../src/guard/permissions.ts";
import type { Reach } from "../../../src/guard/reach.ts";
import { diskEnv } from "../../../src/guard/resolve-path.ts";
import type { Rule } from "../../../src/guard/rules.ts";
import { SessionAllows } from "../../../src/guard/session-allows.ts";
import { createReadCheck } from "../../../src/guard/read-check.ts";
import { createWriteCheck } from "../../../src/guard/write-check.ts";
import type { ToolKind } from "../../../src/tools/tool.ts";
import type { GateCall, Verdict } from "../../../src/guard/verdict.ts";

const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-reach-")));
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
const at = (rel: string) => path.join(base, rel);
const [root, home, shiroHome, sibling, added, shared] = [at("outer/proj"), at("home"), at("shiro"), at("outer/sib"), at("home/notes"), at("home/shared")];
for (const dir of [root, home, shiroHome, sibling, added, shared, path.join(root, ".git")]) fs.mkdirSync(dir, { recursive: true });
fs.symlinkSync(".git/config", path.join(root, "cfg-link"));
const reach: Reach = { writable: [added], readable: [shared], shiroHome };
const env = { ...diskEnv(root, home), reach };

const fileCall = (tool: string, kind: ToolKind, p: string): GateCall => ({ tool, kind, args: {}, root, subject: { paths: [path.resolve(root, p.replace(/^~\//, `${home}/`))] } });
const bashCall = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: {}, root, subject: { command } });
const decide = (call: GateCall, rules: Rule[] = []): Verdict =>
  callSubjects(call, env)
    .map((item) => judgeSubject(call.tool, item, rules, new SessionAllows(), home))
    .reduce(stricter, { decision: "allow" } as Verdict);
/** `allow`, `ask` (--yolo answers it), `person` (only a person does) or `deny`. */
const outcome = (call: GateCall, rules: Rule[] = []) => {
  const v = decide(call, rules);
  return v.decision === "ask" && v.person ? "person" : v.decision;
};
const read = (p: string, rules: Rule[] = []) => outcome(fileCall("read_file", "read", p), rules);
const write = (p: string, rules: Rule[] = []) => outcome(fileCall("write_file", "write", p), rules);
const allow = (tool: string, pattern: string): Rule => ({ decision: "allow", tool, pattern });

describe("what a file tool reaches by default", () => {
  test.each([
    ["src/a.ts", "allow"],
    ["~/.bashrc", "person"],
    ["~/.npmrc", "deny"], // a secret name (docs/secrets.md): refused outright, not only asked
    [`${sibling}/.envrc`, "deny"],
    [`${sibling}/README`, "person"],
    ["../notes.txt", "person"],
    [`${shiroHome}/sessions/x.jsonl`, "person"],
    ["/", "person"], // a search of `/` spans the home
    ["/usr/include/stdio.h", "ask"],
    ["/etc/hosts", "ask"],
    [`${added}/todo.md`, "allow"],
    [`${shared}/doc.md`, "allow"],
  ])("read %p: %p", (p, expected) => expect(read(p)).toBe(expected));

  test.each([
    ["src/a.ts", "ask"],
    [`${added}/todo.md`, "ask"],
    [`${shared}/doc.md`, "person"],
    ["/tmp/out.txt", "person"],
    ["~/todo.md", "person"],
  ])("write %p: %p", (p, expected) => expect(write(p)).toBe(expected));

  test("a rule naming a home file opens it without asking", () => {
    expect(read("~/notes.md", [allow("read_file", "~/*.md")])).toBe("allow");
  });

  test("a command's file outside the project still asks as before: its sandbox keeps it in bounds", () => {
    expect(outcome(bashCall("echo x > ~/todo.md"), [allow("bash", "*")])).toBe("ask");
  });
});

describe("a project that holds the home or $SHIRO_HOME (shiro started in ~ or /)", () => {
  const inner = path.join(home, ".shiro-neko");
  fs.mkdirSync(path.join(inner, "sessions"), { recursive: true });
  const judgeIn = (at: string, p: string) => {
    const v = callSubjects(fileCall("read_file", "read", p), { ...diskEnv(at, home), reach: { writable: [], readable: [], shiroHome: inner } })
      .map((item) => judgeSubject("read_file", item, [], new SessionAllows(), home))
      .reduce(stricter, { decision: "allow" } as Verdict);
    return v.decision === "ask" && v.person ? "person" : v.decision;
  };
  test("started in ~: the home is the project, but $SHIRO_HOME in it is still a person's to open", () => {
    expect(judgeIn(home, path.join(home, ".bashrc"))).toBe("allow");
    expect(judgeIn(home, path.join(inner, "sessions/x.jsonl"))).toBe("person");
  });
  test("started in a folder holding the home: the home is a person's to open", () => {
    expect(judgeIn(base, path.join(home, ".bashrc"))).toBe("person");
    expect(judgeIn(base, path.join(base, "outer/plan.md"))).toBe("allow");
  });
  test("a search of such a project skips those files", () => {
    const denied = createReadCheck({ rules: [], reach: { writable: [], readable: [], shiroHome: inner }, home });
    expect(denied("grep", path.join(inner, "sessions/x.jsonl"), home)).toBe(true);
    expect(denied("grep", path.join(home, "notes.md"), home)).toBe(false);
  });
});

describe("where a read really lands, judged once its folder is open", () => {
  const denied = createReadCheck({ rules: [], reach, home });
  test("a read named in the project that lands in the home (a link swapped in since) is refused", () => {
    expect(denied("read_file", path.join(home, ".bashrc"), root, path.join(root, "sub/.bashrc"))).toBe(true);
    expect(denied("read_file", path.join(shiroHome, "sessions/x.jsonl"), root, path.join(root, "sub/x.jsonl"))).toBe(true);
  });
  test("one that named the home itself (a person approved it) is not; nor a landing in the project or the system", () => {
    expect(denied("read_file", path.join(home, ".bashrc"), root, path.join(home, ".bashrc"))).toBe(false);
    expect(denied("read_file", path.join(root, "src/a.ts"), root, path.join(root, "link/a.ts"))).toBe(false);
    expect(denied("read_file", "/usr/include/stdio.h", root, path.join(root, "inc/stdio.h"))).toBe(false);
  });
  test("a folder-wide read skips only what is denied: a person's approval of the folder stands", () => {
    expect(denied("grep", path.join(home, "notes.md"), root)).toBe(false);
    expect(denied("grep", path.join(home, ".env"), root)).toBe(true);
  });
});

describe("writes where code runs later, outside the sandbox", () => {
  const planted = [".git/config", ".git/hooks/pre-commit", ".git/modules/m/config", ".git/worktrees/w/HEAD", ".git/info/attributes", "sub/.git/config", "sub/.git", ".GIT/hooks/x", "cfg-link", "~/.gitconfig", "~/.config/git/config", "~/.bashrc", "~/.bash_profile", "~/.profile", "~/.zshrc", "~/.zshenv", "~/.config/fish/config.fish", "~/.ssh/config", `${shiroHome}/config.json`, `${shiroHome}/approvals.json`, `${shiroHome}/commands/x.md`, `${sibling}/.git/hooks/post-checkout`, ".shiro/settings.json", ".shiro/hooks/fmt.sh", ".shiro/commands/review.md", ".SHIRO/x", ".mcp.json", "sub/.mcp.json"];
  test.each(planted)("write_file %p is refused, also under rules that allow everything", (p) => {
    expect(write(p)).toBe("deny");
    expect(write(p, [allow("write_file", "**"), allow("*", "**"), allow("write_file", "~/**"), allow("write_file", `${base}/**`)])).toBe("deny");
  });

  test("a rule naming the file, or a glob within its place, lifts it; an ask rule there needs a person", () => {
    expect(write(".git/hooks/pre-commit", [allow("write_file", ".git/hooks/*")])).toBe("allow");
    expect(write("~/.bashrc", [allow("write_file", "~/.bashrc")])).toBe("allow");
    expect(write("~/.config/fish/config.fish", [allow("write_file", "~/.config/fish/**")])).toBe("allow");
    expect(write(".git/config", [{ decision: "ask", tool: "write_file", pattern: ".git/config" }])).toBe("person");
    expect(write(".git/config", [allow("write_file", "**/config")])).toBe("deny");
  });

  test("reads of those places are not writes: a project's .git is read as before", () => {
    expect(read(".git/config")).toBe("allow");
  });

  test.each(["echo x >> ~/.bashrc", "printf '[core]\\n' > .git/config", "cp hook .git/hooks/pre-commit", "tee -a ~/.zshrc < x", "git log > sub/.git/hooks/post-commit", "echo x > .shiro/hooks/fmt.sh", "cp x .mcp.json"])("bash %p is refused though bash is allowed", (command) => {
    expect(outcome(bashCall(command), [allow("bash", "*"), allow("write_file", "**")])).toBe("deny");
  });

  test("the check where a write lands refuses those places too, unless a rule names them", () => {
    const refused = createWriteCheck({ home, reach });
    expect(refused("write_file", path.join(root, ".git/hooks/pre-commit"), root)).toContain("runs later");
    expect(refused("write_file", path.join(home, ".bashrc"), root)).toContain("runs later");
    expect(refused("write_file", path.join(root, "src/a.ts"), root)).toBeUndefined();
    expect(createWriteCheck({ home, reach, rules: [allow("write_file", ".git/hooks/*")] })("write_file", path.join(root, ".git/hooks/pre-commit"), root)).toBeUndefined();
  });
});

describe("a computed program meets the deny rules naming programs", () => {
  const computed = ["$(echo rm) x", "`echo rm` x", "$var x", "${X} x", 'eval "$X"', 'bash -c "$X"', "/bin/r[m] x", "/bin/r? x", "x=$(echo rm); $x a", "{rm,-rf,x}", "shopt -s expand_aliases; alias r=rm; r x", "hash -p /bin/rm r; r x", "function r { rm $1; }; r x"];
  test.each(computed)("%p is refused under --deny 'bash:rm *', even where bash * is allowed", (command) => {
    expect(outcome(bashCall(command), [{ decision: "deny", tool: "bash", pattern: "rm *" }])).toBe("deny");
    expect(outcome(bashCall(command), [allow("bash", "*"), { decision: "deny", tool: "bash", pattern: "rm *" }])).toBe("deny");
  });

  test.each(computed)("%p asks where no deny rule names a program (so --yolo runs it as before)", (command) => {
    expect(outcome(bashCall(command))).toBe("ask");
  });

  test("listing aliases or the hash table redefines nothing", () => {
    expect(outcome(bashCall("alias; hash"), [allow("bash", "alias *"), allow("bash", "hash *"), { decision: "deny", tool: "bash", pattern: "rm *" }])).toBe("allow");
  });

  test("a computed argument is no computed program", () => {
    expect(outcome(bashCall("echo $(date) $HOME"), [allow("bash", "echo *"), allow("bash", "date *"), { decision: "deny", tool: "bash", pattern: "rm *" }])).toBe("allow");
  });
});
