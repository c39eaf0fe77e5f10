/**
 * Issue 18, tried as an attacker would in a realistic layout (the project at ~/code/proj, in a home full
 * of credential dotfiles), through the compiled binary and the strict server under --yolo: each common
 * credential file is refused by name, the home's stores to the file tools, and what slips past a name (a
 * hard link, a copy, git's objects and archives, a remote URL, a variable echoed from a file) reaches the
 * model, stdout and the session files only redacted. Each run first reads an ordinary file, the control.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dotfileHome, HOME_SECRETS, PROJECT_SECRETS, type DotfileHome } from "../../support/dotfile-home.ts";
import { filesContaining } from "../../support/files-containing.ts";
import { outputOf, scriptedJob, type JobResult } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command, timeout_ms: 10_000 } });
const tool = (name: string, args: Record<string, unknown>): PlannedCall => ({ name, arguments: args });

async function run(fx: DotfileHome, calls: PlannedCall[], env: Record<string, string> = {}, args: string[] = []): Promise<JobResult> {
  return scriptedJob(calls, { cwd: fx.root, home: fx.layout.shiroHome, args: ["--yolo", "--json", "--max-steps", String(calls.length + 5), ...args], env: { ...fx.env, ...env } });
}

/** The markers of `which` in no request body, neither stdout nor stderr, and no file under SHIRO_HOME; every call got its output. */
function expectNoneLeaked(fx: DotfileHome, job: JobResult, calls: number, which: string[]) {
  expect([0, 4]).toContain(job.code); // 4: some call was refused, which these runs expect

  expect(job.outputs).toHaveLength(calls);
  const where = (text: string) => fx.leaked(text).filter((k) => which.includes(k));
  expect({ requests: where(job.requests.map((r) => r.raw).join("\n")), stdout: where(job.stdout), stderr: where(job.stderr) }).toEqual({ requests: [], stdout: [], stderr: [] });
  const sessionFiles = which.flatMap((k) => filesContaining(fx.layout.shiroHome, fx.markers[k]!).map((f) => `${k} in ${f}`));
  expect(sessionFiles).toEqual([]);
}

describe("issue 18: credential files, by name and by value", () => {
  test("each common credential file in the project: read_file, cat and grep get none of it; an ordinary file still reads", async () => {
    const fx = dotfileHome();
    const names = Object.keys(PROJECT_SECRETS);
    const calls = [tool("read_file", { path: "readme.txt" }), ...names.flatMap((n) => [tool("read_file", { path: n }), bash(`cat ${n}`)]), tool("grep", { pattern: "[a-f0-9]{20}" })];
    const job = await run(fx, calls);
    expect(outputOf(job, "read_file", (a) => a.path === "readme.txt")).toContain("seen: an ordinary project file");
    expectNoneLeaked(fx, job, calls.length, names);
  });

  test("the home's credential files and stores to read_file, grep, glob and list_dir under --yolo, even with the home opened by a person; an ordinary home file then reads", async () => {
    const fx = dotfileHome();
    const rels = Object.keys(HOME_SECRETS);
    const home = fx.layout.home;
    const calls = [
      tool("read_file", { path: join(home, "notes.txt") }),
      ...rels.map((rel) => tool("read_file", { path: join(home, rel) })),
      ...rels.map((rel) => tool("grep", { pattern: ".", path: join(home, rel) })),
      tool("grep", { pattern: "[a-f0-9]{20}", path: home }),
      tool("glob", { pattern: "**/*", path: home }),
      tool("list_dir", { path: home, depth: 3 }),
    ];
    // The person opens the whole home to the file tools: the secrets in it stay refused.
    const opened = ["read_file", "grep", "glob", "list_dir"].flatMap((t) => ["--allow", `${t}:~/**`]);
    const job = await run(fx, calls, {}, opened);
    expect(outputOf(job, "read_file", (a) => a.path === join(home, "notes.txt"))).toContain("seen: an ordinary home file");
    expectNoneLeaked(fx, job, calls.length, rels.map((rel) => `~/${rel}`));
  });

  test("a hard link and a copy of a secret, git show / cat-file / log -p / archive, and the remote URL's token reach nobody", async () => {
    const fx = dotfileHome();
    const calls = [
      bash("cat readme.txt"),
      bash("cat hardlink.txt"),
      bash("cat copy.txt"),
      bash("git show HEAD:.env"),
      bash("git cat-file -p HEAD:.env"),
      bash("git --no-pager log -p"),
      bash("git archive HEAD | tar -xO"),
      bash("git remote -v"),
      bash("cat .git/config"),
      tool("read_file", { path: ".git/config" }),
      tool("grep", { pattern: "API_KEY|DB_PASSWORD" }),
    ];
    const job = await run(fx, calls);
    expect(outputOf(job, "bash", (a) => a.command === "cat readme.txt")).toContain("seen: an ordinary project file");
    // These ran (redaction, not a refusal, is what stood between the value and the model).
    expect(outputOf(job, "bash", (a) => a.command === "git --no-pager log -p")).toContain("diff --git a/.env b/.env");
    expect(outputOf(job, "bash", (a) => a.command === "git remote -v")).toContain("github.com/o/r.git");
    expectNoneLeaked(fx, job, calls.length, [".env", "HEAD:.env", "prod.env", "remote token"]);
  });

  test("DATABASE_URL, STRIPE_KEY_LIVE and SSH_AUTH_SOCK are not in a command's environment, and their values echoed from a file are redacted", async () => {
    const fx = dotfileHome();
    const password = "pgPw" + fx.markers[".env"]!.slice(-12);
    const stripe = "sk_live_" + fx.markers["prod.env"]!.slice(-16);
    const sock = join(fx.layout.tmp, "ssh-agent.sock");
    fx.markers["DATABASE_URL password"] = password;
    fx.markers["STRIPE_KEY_LIVE"] = stripe;
    writeFileSync(join(fx.root, "log.txt"), `connecting to postgres://app:${password}@db.internal/app\ncharging with ${stripe}\n`);
    const calls = [bash("env"), bash("cat log.txt"), bash('echo "[$DATABASE_URL] [$STRIPE_KEY_LIVE] [$SSH_AUTH_SOCK]"')];
    const job = await run(fx, calls, { DATABASE_URL: `postgres://app:${password}@db.internal/app`, STRIPE_KEY_LIVE: stripe, SSH_AUTH_SOCK: sock });
    const env = outputOf(job, "bash", (a) => a.command === "env");
    expect(env).toContain(`HOME=${fx.layout.home}`);
    expect(["DATABASE_URL", "STRIPE_KEY_LIVE", "SSH_AUTH_SOCK", sock].filter((name) => env.includes(name))).toEqual([]);
    expect(outputOf(job, "bash", (a) => a.command.startsWith("echo"))).toStartWith("[] [] []");
    expect(outputOf(job, "bash", (a) => a.command === "cat log.txt")).toContain("connecting to ");
    expectNoneLeaked(fx, job, calls.length, ["DATABASE_URL password", "STRIPE_KEY_LIVE"]);
  });

  test("sandbox.env lets a named secret through; an unnamed one stays out; sandbox.denyEnv keeps an ordinary one out; an ordinary one passes", async () => {
    const fx = dotfileHome();
    writeFileSync(join(fx.layout.shiroHome, "config.json"), JSON.stringify({ sandbox: { env: ["MY_TOKEN"], denyEnv: ["MY_NOTE"] } }));
    const calls = [bash('echo "[${#MY_TOKEN}] [$OTHER_TOKEN] [$MY_NOTE] [$MY_SETTING]"')];
    const job = await run(fx, calls, { MY_TOKEN: "passed-through", OTHER_TOKEN: "kept-out", MY_NOTE: "denied", MY_SETTING: "ordinary" });
    expect(job.code).toBe(0);
    expect(job.outputs[0]!.output).toStartWith("[14] [] [] [ordinary]");
  });

  test("where a person allowed the whole folder (read_file:**, bash:cat *), the secrets' values still reach nobody", async () => {
    const fx = dotfileHome();
    const names = ["prod.env", ".npmrc", ".pypirc", "credentials.json"];
    const calls = [tool("read_file", { path: "readme.txt" }), ...names.flatMap((n) => [tool("read_file", { path: n }), bash(`cat ${n}`)]), tool("read_file", { path: join(fx.layout.home, ".pypirc") })];
    const job = await scriptedJob(calls, {
      cwd: fx.root,
      home: fx.layout.shiroHome,
      args: ["--yolo", "--json", "--allow", "read_file:**", "--allow", "read_file:~/**", "--allow", "bash:cat *"],
      env: fx.env,
    });
    expect(outputOf(job, "read_file", (a) => a.path === "readme.txt")).toContain("seen: an ordinary project file");
    expectNoneLeaked(fx, job, calls.length, [...names, "~/.pypirc"]);
  });

  test("config secretFiles: an extra name is refused to read_file, cat and grep like a built-in one; other files still read", async () => {
    const fx = dotfileHome();
    writeFileSync(join(fx.layout.shiroHome, "config.json"), JSON.stringify({ secretFiles: ["*.secret", "vault/*.txt"] }));
    fx.markers["db.secret"] = "dbsecret" + fx.markers[".env"]!.slice(-16);
    fx.markers["vault/k.txt"] = "vaultkey" + fx.markers["prod.env"]!.slice(-16);
    writeFileSync(join(fx.root, "db.secret"), `${fx.markers["db.secret"]}\n`);
    mkdirSync(join(fx.root, "vault"));
    writeFileSync(join(fx.root, "vault", "k.txt"), `${fx.markers["vault/k.txt"]}\n`);
    const calls = [
      tool("read_file", { path: "readme.txt" }),
      tool("read_file", { path: "db.secret" }),
      bash("cat db.secret"),
      tool("read_file", { path: "vault/k.txt" }),
      bash("cat vault/*"),
      tool("grep", { pattern: "dbsecret|vaultkey" }),
    ];
    const job = await run(fx, calls);
    expect(outputOf(job, "read_file", (a) => a.path === "readme.txt")).toContain("seen: an ordinary project file");
    expectNoneLeaked(fx, job, calls.length, ["db.secret", "vault/k.txt"]);
  });
});
