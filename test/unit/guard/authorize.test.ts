import { afterAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { runToolCall, type CallOutcome } from "../../../src/loop/run-tool-call.ts";
import { createAuthorize, type AskAnswer, type AskRequest, type AuthorizeOptions } from "../../../src/guard/authorize.ts";
import { SessionAllows } from "../../../src/guard/session-allows.ts";
import { defineTool, type AnyTool } from "../../../src/tools/tool.ts";
import { noSecrets } from "../../support/no-secrets.ts";
import { createRedactor } from "../../../src/secrets/redact.ts";
import { writeFile as realWriteFile } from "../../../src/tools/files/write-file.ts";

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-auth-root-")));
const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "shiro-auth-home-")));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(home, { recursive: true, force: true });
});

// Minimal tools in the real Tool shape, built by hand: the write one really writes, so a denial shows on disk.
const writeFile = defineTool({
  name: "write_file",
  description: "write",
  kind: "write",
  schema: z.object({ path: z.string(), content: z.string() }),
  subject: (a) => ({ paths: [a.path] }),
  preview: async (a) => `+++ ${a.path}\n+${a.content}`,
  run: async (a, ctx) => {
    fs.writeFileSync(path.resolve(ctx.root, a.path), a.content);
    return { output: "written" };
  },
});
const bash = defineTool({
  name: "bash",
  description: "run",
  kind: "exec",
  schema: z.object({ command: z.string() }),
  subject: (a) => ({ command: a.command }),
  run: async () => ({ output: "ran" }),
});
const readFile = defineTool({
  name: "read_file",
  description: "read",
  kind: "read",
  schema: z.object({ path: z.string() }),
  subject: (a) => ({ paths: [a.path] }),
  run: async () => ({ output: "text" }),
});
const todos = defineTool({ name: "todos", description: "t", kind: "meta", schema: z.object({}), subject: () => ({}), run: async () => ({ output: "ok" }) });

const make = (opts: Partial<AuthorizeOptions> = {}) => createAuthorize({ rules: [], yolo: false, sessionAllows: new SessionAllows(), home, ...opts });
const req = (tool: AnyTool, args: unknown) => ({ tool, args, callId: "call_1", root });
const asker = (...answers: AskAnswer[]) => {
  const seen: AskRequest[] = [];
  return { seen, ask: async (request: AskRequest) => (seen.push(request), answers.shift()!) };
};

describe("createAuthorize", () => {
  test("print mode: an ask becomes a denial the model can read", async () => {
    expect(await make()(req(writeFile, { path: "notes/x.md", content: "hi" }))).toEqual({
      allowed: false,
      reason: "write_file notes/x.md needs approval, and this run cannot ask (print mode). Allow it with a permission rule (--allow, or config.json) or run with --yolo.",
    });
    expect(await make()(req(bash, { command: "npm test" }))).toEqual({
      allowed: false,
      reason: "bash: npm test needs approval, and this run cannot ask (print mode). Allow it with a permission rule (--allow, or config.json) or run with --yolo.",
    });
  });

  test("print mode: a chain's denial names the part that needs approval, not the whole command", async () => {
    const rules = [{ decision: "allow" as const, tool: "bash", pattern: "git *" }];
    const reason = (command: string) => make({ rules })(req(bash, { command })).then((r) => (r.allowed ? "allowed" : r.reason.split(", and this run")[0]));
    expect(await reason("echo a && touch x")).toBe("bash: echo a and touch x need approval");
    expect(await reason("git add -A && touch x")).toBe("bash: touch x needs approval");
    expect(await reason("git status | tee log.txt")).toBe("bash: tee log.txt and write_file log.txt need approval");
    expect(await reason("cd sub && git log $(rm notes.txt)")).toBe("bash: rm notes.txt needs approval");
    expect(await reason("git status && git log")).toBe("allowed");
  });

  test("REPL: the summary still shows the whole chain, while the always patterns cover each part", async () => {
    const { ask, seen } = asker({ answer: "no" });
    const rules = [{ decision: "allow" as const, tool: "bash", pattern: "git *" }];
    expect(await make({ ask, rules })(req(bash, { command: "git add -A && touch x" }))).toEqual({ allowed: false, reason: "the user declined bash: git add -A && touch x." });
    expect(seen[0]).toMatchObject({ summary: "bash: git add -A && touch x", always: ["git add *", "touch *"] });
  });

  test("reads are allowed without asking; meta tools never gate", async () => {
    const { ask, seen } = asker();
    expect(await make({ ask })(req(readFile, { path: "src/a.ts" }))).toEqual({ allowed: true });
    expect(await make({ ask })(req(todos, {}))).toEqual({ allowed: true });
    expect(seen).toHaveLength(0);
  });

  test("--yolo approves asks but cannot reach the guard, deny rules or plugin denials", async () => {
    const yolo = make({ yolo: true, rules: [{ decision: "deny", pattern: "**/*.lock" }], extraChecks: [(call) => (call.subject.command?.startsWith("docker") ? { decision: "deny", rule: "plugin docker", reason: "plugin docker: no containers" } : undefined)] });
    expect(await yolo(req(writeFile, { path: "notes/x.md", content: "" }))).toEqual({ allowed: true });
    expect(await yolo(req(bash, { command: "npm test" }))).toEqual({ allowed: true, sandbox: "workspace-write" });
    expect(await yolo(req(bash, { command: "echo KEY=1 >> .env" }))).toMatchObject({ allowed: false, reason: expect.stringMatching(new RegExp(`^${RegExp.escape("guard: secret file .env")}`)) });
    expect(await yolo(req(bash, { command: "git push --force" }))).toMatchObject({ allowed: false, reason: expect.stringMatching(new RegExp(`^${RegExp.escape("guard: destructive command git push --force")}`)) });
    expect(await yolo(req(writeFile, { path: "bun.lock", content: "" }))).toEqual({ allowed: false, reason: "permission rule deny **/*.lock (config.json)." });
    expect(await yolo(req(bash, { command: "docker run x" }))).toEqual({ allowed: false, reason: "plugin docker: no containers" });
  });

  test("plan mode (readOnly): a command runs read-only without asking anyone, whatever approved it; the guard still denies; the same calls outside plan mode write", async () => {
    const { ask, seen } = asker({ answer: "yes" });
    const confine = async () => true;
    const plan = (request: ReturnType<typeof req>) => ({ ...request, readOnly: true });
    const rules = [{ decision: "allow" as const, tool: "bash", pattern: "npm test" }];
    expect(await make({ ask, confine })(plan(req(bash, { command: "touch x" })))).toEqual({ allowed: true, sandbox: "read-only" });
    expect(seen).toHaveLength(0);
    // An allow rule keeps what a person's word earns (the network), never the writes; --yolo alike.
    expect(await make({ confine, rules })(plan(req(bash, { command: "npm test" })))).toEqual({ allowed: true, sandbox: "read-only", byPerson: true });
    expect(await make({ confine, yolo: true })(plan(req(bash, { command: "touch x" })))).toEqual({ allowed: true, sandbox: "read-only" });
    expect(await make({ confine, yolo: true })(plan(req(bash, { command: "git push --force" })))).toMatchObject({ allowed: false, reason: expect.stringMatching(/^guard: destructive command/) });
    // A hook's ask is still asked, and a yes still runs read-only.
    expect(await make({ ask, confine })({ ...plan(req(bash, { command: "touch x" })), hookAsk: "check it" })).toEqual({ allowed: true, sandbox: "read-only", byPerson: true });
    expect(seen).toHaveLength(1);
    // The controls: outside plan mode the same approvals write.
    expect(await make({ confine, rules })(req(bash, { command: "npm test" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    expect(await make({ confine, yolo: true })(req(bash, { command: "touch x" }))).toEqual({ allowed: true, sandbox: "workspace-write" });
  });

  test("plan mode where no OS sandbox can hold a command: refused, saying why; reads still allowed", async () => {
    const refused = await make({ confine: async () => false, yolo: true })({ ...req(bash, { command: "ls" }), readOnly: true });
    expect(refused).toMatchObject({ allowed: false, reason: expect.stringContaining("in plan mode a command runs only in a read-only OS sandbox") });
    expect(await make({ confine: async () => false })({ ...req(readFile, { path: "src/a.ts" }), readOnly: true })).toEqual({ allowed: true });
  });

  test("rules allow without asking; the guard still wins over an allow-everything rule", async () => {
    const auth = make({ rules: [{ decision: "allow", pattern: "**" }, { decision: "allow", tool: "bash", pattern: "*" }] });
    expect(await auth(req(writeFile, { path: "src/a.ts", content: "" }))).toEqual({ allowed: true });
    expect(await auth(req(writeFile, { path: ".env", content: "" }))).toMatchObject({ allowed: false, reason: expect.stringMatching(new RegExp(`^${RegExp.escape("guard: secret file .env")}`)) });
    expect(await auth(req(bash, { command: "rm -rf ~" }))).toMatchObject({ allowed: false, reason: expect.stringMatching(new RegExp(`^${RegExp.escape(`guard: destructive command rm -rf ${home}`)}`)) });
  });

  test("REPL: the person sees the preview, and yes / no (with reason) / always behave", async () => {
    const { ask, seen } = asker({ answer: "yes" }, { answer: "no", reason: "use notes/y.md instead" }, { answer: "no" });
    const auth = make({ ask });
    expect(await auth(req(writeFile, { path: "notes/x.md", content: "hello" }))).toEqual({ allowed: true });
    expect(seen[0]).toMatchObject({ summary: "write_file notes/x.md", preview: "+++ notes/x.md\n+hello", always: ["notes/x.md"] });
    expect(seen[0]!.call).toMatchObject({ tool: "write_file", kind: "write", subject: { paths: [`${root}/notes/x.md`] } });
    expect(await auth(req(writeFile, { path: "notes/x.md", content: "hello" }))).toEqual({ allowed: false, reason: "the user declined: use notes/y.md instead" });
    expect(await auth(req(bash, { command: "make" }))).toEqual({ allowed: false, reason: "the user declined bash: make." });
  });

  test("REPL: a write of a file holding a secret is previewed with the marker put back, then redacted: only the changed line shows", async () => {
    const secret = "tok-preview-0123456789";
    fs.mkdirSync(path.join(root, "conf"), { recursive: true });
    fs.writeFileSync(path.join(root, "conf", "app.js"), `token = "${secret}"\nretries = 3\n`);
    const redactor = createRedactor([{ name: ".env", value: secret }]);
    const { ask, seen } = asker({ answer: "no" });
    const content = `token = "[redacted .env]"\nretries = 5\n`;
    await make({ ask })({ ...req(realWriteFile, { path: "conf/app.js", content }), redactor });
    expect(seen[0]!.preview).toBe('--- conf/app.js\n+++ conf/app.js\n@@ -1,2 +1,2 @@\n token = "[redacted .env]"\n-retries = 3\n+retries = 5\n');
  });

  test("always records `git log *` for the session: later git log commands run without asking, others still ask", async () => {
    const sessionAllows = new SessionAllows();
    const { ask, seen } = asker({ answer: "always" }, { answer: "yes" });
    const auth = make({ ask, sessionAllows });
    // Each approval here is a person's (an answer, or the "always" they gave), so each earns byPerson.
    expect(await auth(req(bash, { command: "git log -1" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    expect(seen[0]!.always).toEqual(["git log *"]);
    expect(sessionAllows.list()).toEqual([{ tool: "bash", pattern: "git log *" }]);
    expect(await auth(req(bash, { command: "git log --oneline" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    expect(seen).toHaveLength(1);
    expect(await auth(req(bash, { command: "git status" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    expect(seen).toHaveLength(2);
    // deny beats always
    expect(await auth(req(bash, { command: "git push -f" }))).toMatchObject({ allowed: false });
    expect(seen).toHaveLength(2);
  });

  test("a read outside the project asks, saying so", async () => {
    const { ask, seen } = asker({ answer: "yes" });
    await make({ ask })(req(readFile, { path: "/etc/hosts" }));
    expect(seen[0]!.summary).toBe(`read_file ${fs.realpathSync("/etc/hosts")} (outside the project)`);
  });

  test("a subject that cannot be computed is refused, not run", async () => {
    const broken = defineTool({ ...writeFile, name: "broken", subject: () => { throw new Error("no path"); } });
    expect(await make({ yolo: true })(req(broken, {}))).toEqual({ allowed: false, reason: "cannot tell what broken would touch (no path), so it was not run." });
  });

  test("wired into runToolCall: a refused write never touches the disk and the model reads why", async () => {
    const auth = make({ yolo: true });
    const run = async (args: object) => {
      const gen = runToolCall({ type: "tool-call", callId: "c1", name: "write_file", arguments: JSON.stringify(args) }, { tools: [writeFile], authorize: auth, root, signal: new AbortController().signal, commit: () => {}, ...noSecrets });
      let step = await gen.next();
      while (!step.done) step = await gen.next();
      return step.value as CallOutcome;
    };
    const refused = await run({ path: "config/.ENV", content: "KEY=stolen" });
    expect(refused).toMatchObject({ denied: true, output: expect.stringMatching(new RegExp(`^${RegExp.escape("Denied: guard: secret file config/.ENV")}`)) });
    expect(fs.existsSync(path.join(root, "config/.ENV"))).toBe(false);
    expect(await run({ path: "ok.txt", content: "fine" })).toMatchObject({ denied: false, output: "written" });
    expect(fs.readFileSync(path.join(root, "ok.txt"), "utf8")).toBe("fine");
  });
});

describe("the sandbox level an authorization gives a command", () => {
  test("print mode (no one to ask): with a sandbox in force the command runs read-only; without one it is denied as before", async () => {
    expect(await make({ confine: async () => true })(req(bash, { command: "ls" }))).toEqual({ allowed: true, sandbox: "read-only" });
    expect((await make({ confine: async () => false })(req(bash, { command: "ls" }))).allowed).toBe(false);
    expect((await make()(req(bash, { command: "ls" }))).allowed).toBe(false);
  });

  test("approved by --yolo, a rule or the person: workspace-write; the guard and deny rules still refuse", async () => {
    expect(await make({ yolo: true })(req(bash, { command: "make" }))).toEqual({ allowed: true, sandbox: "workspace-write" });
    expect(await make({ rules: [{ decision: "allow", tool: "bash", pattern: "make*" }] })(req(bash, { command: "make" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    expect(await make({ ask: async () => ({ answer: "yes" }) })(req(bash, { command: "make" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    expect((await make({ yolo: true, confine: async () => true })(req(bash, { command: "cat .env" }))).allowed).toBe(false);
    expect((await make({ confine: async () => true, rules: [{ decision: "deny", tool: "bash", pattern: "ls*" }] })(req(bash, { command: "ls" }))).allowed).toBe(false);
  });

  test("a write tool in print mode is still denied: the sandbox only confines commands", async () => {
    expect((await make({ confine: async () => true })(req(writeFile, { path: "a.txt", content: "x" }))).allowed).toBe(false);
  });
});

describe("what only a person gives: the home to the file tools, the network to a command", () => {
  test("--yolo does not open the home: print mode denies, the REPL asks, a rule naming it opens it", async () => {
    const notes = path.join(home, "notes.md");
    expect(await make({ yolo: true })(req(readFile, { path: notes }))).toMatchObject({ allowed: false, reason: expect.stringContaining("--yolo does not") });
    const { ask, seen } = asker({ answer: "yes" });
    expect(await make({ yolo: true, ask })(req(readFile, { path: notes }))).toEqual({ allowed: true });
    expect(seen).toHaveLength(1);
    expect(await make({ yolo: true, rules: [{ decision: "allow", tool: "read_file", pattern: "~/*.md" }] })(req(readFile, { path: notes }))).toEqual({ allowed: true });
    expect(await make({ yolo: true, reach: { writable: [home], readable: [] } })(req(writeFile, { path: notes, content: "" }))).toEqual({ allowed: true });
  });

  test("a command earns byPerson from an allow rule, an always or a key press, also under --yolo; never from --yolo alone", async () => {
    const rule = [{ decision: "allow" as const, tool: "bash", pattern: "make*" }];
    expect(await make({ yolo: true })(req(bash, { command: "make" }))).toEqual({ allowed: true, sandbox: "workspace-write" });
    expect(await make({ yolo: true, rules: rule })(req(bash, { command: "make" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    // Part of the chain allowed by a rule, the rest only by --yolo: nobody approved all of it.
    expect(await make({ yolo: true, rules: rule })(req(bash, { command: "make && curl x" }))).toEqual({ allowed: true, sandbox: "workspace-write" });
    const sessionAllows = new SessionAllows();
    sessionAllows.add("bash", ["make *"]);
    expect(await make({ yolo: true, sessionAllows })(req(bash, { command: "make all" }))).toEqual({ allowed: true, sandbox: "workspace-write", byPerson: true });
    expect(await make({ yolo: true, ask: async () => ({ answer: "yes" }) })(req(bash, { command: "make" }))).toEqual({ allowed: true, sandbox: "workspace-write" });
    expect(await make({ confine: async () => true })(req(bash, { command: "make" }))).toEqual({ allowed: true, sandbox: "read-only" });
  });
});
