import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { callSubjects } from "../../../src/guard/call-subjects.ts";
import { globToRegExp } from "../../../src/guard/glob-match.ts";
import { judgeSubject, stricter } from "../../../src/guard/permissions.ts";
import { diskEnv } from "../../../src/guard/resolve-path.ts";
import { permissionsSchema, type Rule } from "../../../src/guard/rules.ts";
import { alwaysPatternFor, SessionAllows } from "../../../src/guard/session-allows.ts";
import type { ToolKind } from "../../../src/tools/tool.ts";
import type { GateCall, Verdict } from "../../../src/guard/verdict.ts";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-rules-root-")));
const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-rules-home-")));
fs.symlinkSync("/etc", path.join(root, "etc-link"));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});
const env = diskEnv(root, home);

const fileCall = (tool: string, kind: ToolKind, ...paths: string[]): GateCall => ({ tool, kind, args: {}, root, subject: { paths: paths.map((p) => path.resolve(root, p)) } });
const bashCall = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: {}, root, subject: { command } });
const decide = (call: GateCall, rules: Rule[] = [], session = new SessionAllows()): Verdict =>
  callSubjects(call, env)
    .map((item) => judgeSubject(call.tool, item, rules, session, home))
    .reduce(stricter, { decision: "allow" } as Verdict);
const decision = (call: GateCall, rules: Rule[] = [], session?: SessionAllows) => {
  const v = decide(call, rules, session);
  return v.decision === "deny" ? `deny: ${v.rule}` : v.decision;
};

describe("glob patterns", () => {
  const table: [string, "path" | "command", string, boolean][] = [
    ["*.lock", "path", "bun.lock", true],
    ["*.lock", "path", "sub/bun.lock", false],
    ["**/*.lock", "path", "bun.lock", true],
    ["**/*.lock", "path", "a/b/bun.lock", true],
    ["src/**", "path", "src/a/b.ts", true],
    ["src/**", "path", "srcx/a.ts", false],
    ["src/*.ts", "path", "src/a/b.ts", false],
    ["file?.md", "path", "file1.md", true],
    ["file?.md", "path", "file/.md", false],
    ["~/notes/**", "path", `${home}/notes/a.md`, true],
    ["a\\*b", "path", "a*b", true],
    ["a\\*b", "path", "axb", false],
    ["git *", "command", "git status", true],
    ["git *", "command", "git", true],
    ["git *", "command", "gitk", false],
    ["npm run *", "command", "npm run build -- --watch /tmp", true],
    ["*--force*", "command", "git push --force", true],
  ];
  test.each(table)("%p (%s) vs %p → %p", (pattern, mode, subject, expected) => {
    expect(globToRegExp(pattern, mode, home).test(subject)).toBe(expected);
  });
});

describe("permissionsSchema", () => {
  test("accepts rules", () => {
    const rules = [{ decision: "deny", pattern: "**/*.lock" }, { decision: "allow", tool: "bash", pattern: "git *" }];
    expect(permissionsSchema.parse(rules)).toEqual(rules as Rule[]);
  });
  test("an unknown decision word is rejected with an error naming it, never widened", () => {
    const result = permissionsSchema.safeParse([{ decision: "alow", tool: "bash", pattern: "git *" }]);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe('unknown decision "alow": use "allow", "ask" or "deny"');
    expect(result.error!.issues[0]!.path).toEqual([0, "decision"]);
  });
  test("typos in keys and empty patterns are rejected", () => {
    expect(permissionsSchema.safeParse([{ decision: "deny", patern: "x" }]).success).toBe(false);
    expect(permissionsSchema.safeParse([{ decision: "deny", pattern: "" }]).success).toBe(false);
  });
});

describe("defaults", () => {
  const table: [string, GateCall, string][] = [
    ["reads are allowed", fileCall("read_file", "read", "src/a.ts"), "allow"],
    ["searches are allowed", fileCall("grep", "read"), "allow"],
    ["reading .env is denied", fileCall("read_file", "read", ".env"), "deny: permission rule deny .env (default: secret file)"],
    ["reading .ENV.local is denied", fileCall("read_file", "read", "x/.ENV.local"), "deny: permission rule deny x/.ENV.local (default: secret file)"],
    ["reading .env.example is allowed", fileCall("read_file", "read", ".env.example"), "allow"],
    ["listing ~/.ssh is denied", fileCall("list_dir", "read", `${home}/.ssh`), `deny: permission rule deny ${home}/.ssh (default: secret file)`],
    ["grep over a key is denied", fileCall("grep", "read", "certs/tls.key"), "deny: permission rule deny certs/tls.key (default: secret file)"],
    ["reads outside the project ask", fileCall("read_file", "read", "/etc/hosts"), "ask"],
    ["reads through a symlink leaving the project ask", fileCall("read_file", "read", "etc-link/hosts"), "ask"],
    ["writes ask", fileCall("write_file", "write", "notes/x.md"), "ask"],
    ["patches ask", fileCall("apply_patch", "write", "a.ts", "b.ts"), "ask"],
    ["bash asks", bashCall("ls -la"), "ask"],
    ["bash reading .env is denied", bashCall("cat .env"), "deny: permission rule deny .env (default: secret file)"],
    ["bash grep in .env is denied", bashCall("grep password .env"), "deny: permission rule deny .env (default: secret file)"],
    ["bash grep in .env.example asks", bashCall("grep password .env.example"), "ask"],
    ["bash reading ~/.ssh inside a chain is denied", bashCall("ls && cat ~/.ssh/id_ed25519"), `deny: permission rule deny ${home}/.ssh/id_ed25519 (default: secret file)`],
    ["bash --file=.env is denied", bashCall("tool --env-file=.env"), "deny: permission rule deny .env (default: secret file)"],
    ["meta tools never gate", { tool: "todos", kind: "meta", args: {}, root, subject: {} }, "allow"],
    // every private key name, cloud and database credentials, certificate bundles; public keys stay readable
    ["reading id_ed25519 is denied", fileCall("read_file", "read", "keys/id_ed25519"), "deny: permission rule deny keys/id_ed25519 (default: secret file)"],
    ["reading id_ECDSA is denied", fileCall("read_file", "read", "id_ECDSA"), "deny: permission rule deny id_ECDSA (default: secret file)"],
    ["reading id_dsa is denied", fileCall("read_file", "read", "id_dsa"), "deny: permission rule deny id_dsa (default: secret file)"],
    ["reading id_ed25519.pub is allowed", fileCall("read_file", "read", "keys/id_ed25519.pub"), "allow"],
    ["reading id_rsa.pub is allowed", fileCall("read_file", "read", "id_rsa.pub"), "allow"],
    ["reading ~/.aws/credentials is denied", fileCall("read_file", "read", `${home}/.aws/credentials`), `deny: permission rule deny ${home}/.aws/credentials (default: secret file)`],
    ["reading ~/.aws/config is denied (issue 18: the whole ~/.aws is secret)", fileCall("read_file", "read", `${home}/.aws/config`), `deny: permission rule deny ${home}/.aws/config (default: secret file)`],
    ["reading ~/.config/app.json asks (outside the project)", fileCall("read_file", "read", `${home}/.config/app.json`), "ask"],
    ["grep over ~/.netrc is denied", fileCall("grep", "read", `${home}/.netrc`), `deny: permission rule deny ${home}/.netrc (default: secret file)`],
    ["reading a .pgpass is denied", fileCall("read_file", "read", ".pgpass"), "deny: permission rule deny .pgpass (default: secret file)"],
    ["reading a .p12 is denied", fileCall("read_file", "read", "certs/client.p12"), "deny: permission rule deny certs/client.p12 (default: secret file)"],
    ["reading a .PFX is denied", fileCall("read_file", "read", "certs/store.PFX"), "deny: permission rule deny certs/store.PFX (default: secret file)"],
    ["bash cat id_ed25519 is denied", bashCall("cat id_ed25519"), "deny: permission rule deny id_ed25519 (default: secret file)"],
    ["bash cat id_ed25519.pub asks", bashCall("cat id_ed25519.pub"), "ask"],
    ["bash ssh-keygen -y over id_* is denied", bashCall("ssh-keygen -y -f id_*"), "deny: permission rule deny id_* (default: secret file)"],
    ["bash cat id_*.pub asks", bashCall("cat id_*.pub"), "ask"],
    ["bash aws with the credentials file is denied", bashCall("cat ~/.aws/credentials | grep key"), `deny: permission rule deny ${home}/.aws/credentials (default: secret file)`],
    ["bash curl --netrc-file is denied", bashCall("curl --netrc-file=$HOME/.netrc http://127.0.0.1/"), `deny: permission rule deny ${home}/.netrc (default: secret file)`],
    ["bash PGPASSFILE=.pgpass is denied", bashCall("PGPASSFILE=.pgpass psql"), "deny: permission rule deny .pgpass (default: secret file)"],
    ["bash openssl over a .p12 is denied", bashCall("openssl pkcs12 -in cert.p12 -nodes"), "deny: permission rule deny cert.p12 (default: secret file)"],
  ];
  test.each(table)("%s", (_, call, expected) => {
    expect(decision(call)).toBe(expected);
  });
});

describe("user rules", () => {
  test("the last matching rule wins", () => {
    const call = fileCall("write_file", "write", "bun.lock");
    expect(decision(call, [{ decision: "allow", pattern: "**" }, { decision: "deny", pattern: "**/*.lock" }])).toBe("deny: permission rule deny **/*.lock");
    expect(decision(call, [{ decision: "deny", pattern: "**/*.lock" }, { decision: "allow", pattern: "**" }])).toBe("allow");
  });
  test("a rule applies only to its tool", () => {
    const rules: Rule[] = [{ decision: "allow", tool: "edit_file", pattern: "src/**" }];
    expect(decision(fileCall("edit_file", "write", "src/a.ts"), rules)).toBe("allow");
    expect(decision(fileCall("write_file", "write", "src/a.ts"), rules)).toBe("ask");
  });
  test("apply_patch: every path is judged and the strictest wins", () => {
    const rules: Rule[] = [{ decision: "allow", tool: "apply_patch", pattern: "src/**" }, { decision: "deny", pattern: "**/*.lock" }];
    expect(decision(fileCall("apply_patch", "write", "src/a.ts", "src/b.ts"), rules)).toBe("allow");
    expect(decision(fileCall("apply_patch", "write", "src/a.ts", "docs/c.md"), rules)).toBe("ask");
    expect(decision(fileCall("apply_patch", "write", "src/a.ts", "bun.lock", "docs/c.md"), rules)).toBe("deny: permission rule deny **/*.lock");
  });
  test("bash rules match every command of a chain, so `git *` does not let `&& rm` through", () => {
    const rules: Rule[] = [{ decision: "allow", tool: "bash", pattern: "git *" }];
    expect(decision(bashCall("git status"), rules)).toBe("allow");
    expect(decision(bashCall("cd sub && git log -1"), rules)).toBe("allow");
    expect(decision(bashCall("git log && rm notes.txt"), rules)).toBe("ask");
    expect(decision(bashCall("git log $(rm notes.txt)"), rules)).toBe("ask");
    expect(decision(bashCall("bash -c 'git status'"), rules)).toBe("ask");
  });
  test("a user rule can lift a default secret deny for reads", () => {
    expect(decision(fileCall("read_file", "read", ".env.test"), [{ decision: "allow", tool: "read_file", pattern: ".env.test" }])).toBe("allow");
  });
  test("a symlink is judged by both names: an allow on the link does not cover where it lands", () => {
    expect(decision(fileCall("read_file", "read", "etc-link/hosts"), [{ decision: "allow", pattern: "etc-link/**" }])).toBe("ask");
  });
});

describe("session always-approvals", () => {
  test("the offered pattern is the program and its subcommand for commands (the exact one when it destroys), and the path for files", () => {
    expect(alwaysPatternFor(bashCall("git commit -m 'x y'"), env)).toEqual(["git commit *"]);
    expect(alwaysPatternFor(bashCall("npm test && git push"), env)).toEqual(["npm test *", "git push"]);
    expect(alwaysPatternFor(bashCall("sudo apt install x"), env)).toEqual(["sudo apt install *"]);
    expect(alwaysPatternFor(fileCall("write_file", "write", "notes/x.md"), env)).toEqual(["notes/x.md"]);
    expect(alwaysPatternFor(fileCall("write_file", "write", "weird*name.md"), env)).toEqual(["weird\\*name.md"]);
  });
  test("an approval lifts later asks for the same tool and pattern only", () => {
    const session = new SessionAllows();
    session.add("bash", alwaysPatternFor(bashCall("git diff"), env));
    expect(decision(bashCall("git diff --stat"), [], session)).toBe("allow");
    expect(decision(bashCall("git log"), [], session)).toBe("ask");
    expect(decision(bashCall("npm test"), [], session)).toBe("ask");
    session.add("write_file", ["notes/x.md"]);
    expect(decision(fileCall("write_file", "write", "notes/x.md"), [], session)).toBe("allow");
    expect(decision(fileCall("write_file", "write", "notes/y.md"), [], session)).toBe("ask");
    expect(decision(fileCall("edit_file", "write", "notes/x.md"), [], session)).toBe("ask");
  });
  test("deny beats always: neither a deny rule nor a default secret deny is lifted", () => {
    const session = new SessionAllows();
    session.add("bash", ["git *", "cat *"]);
    expect(decision(bashCall("git push origin main"), [{ decision: "deny", tool: "bash", pattern: "git push *" }], session)).toBe(
      "deny: permission rule deny bash git push *",
    );
    expect(decision(bashCall("cat .env"), [], session)).toBe("deny: permission rule deny .env (default: secret file)");
  });
});
