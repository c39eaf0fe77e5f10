/**
 * Issue 30: under Landlock (GitHub's Ubuntu 24.04 runner, simulated: bwrap cannot make namespaces
 * there) an approved command builds as it does under bubblewrap — a top-level `dist/`, `node_modules/`
 * from `npm ci`, `sed -i` on `package.json`, a new top-level file, `git commit` with a `~/.gitconfig`
 * in the home — while the gate keeps the project's `.env` unreadable and git's hooks and config as
 * they were. Judged by outcome: the files on disk, the commit, what reached the model, and what the
 * person's own `git status` and `git commit` run afterwards.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git } from "../../support/guard-projects.ts";
import { NO_USERNS, simulationHere } from "../../support/no-userns.ts";
import { addNodeProject, BUILD_OUTPUT } from "../../support/node-project.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { scriptedJob } from "../../support/scripted-job.ts";
import { toolHere } from "../../support/tool-here.ts";

const bash = (command: string) => ({ name: "bash", arguments: { command } });
// The system's python: a tool folder of the real home (pyenv's shims) is not shown when HOME is a test's.
const PY = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const SECRET = "gatetest-env-value-5c1d9e";
const HOME_SECRET = "gatetest-home-value-77ab01";
// Each backend as the person meets it: bubblewrap where it runs, Landlock on the simulated runner.
const BACKENDS = [
  ...(toolHere("bwrap", Bun.which("bwrap") !== null) ? [{ name: "bubblewrap", wrap: undefined }] : []),
  ...(simulationHere() ? [{ name: "Landlock on the simulated 24.04 runner", wrap: NO_USERNS }] : []),
];

/** A Node project at ~/code/proj in a home with a `.gitconfig` and credentials; `.env` ignored, as real projects keep it. */
function project() {
  const home = tempDir("gate-home");
  const root = join(home, "code/proj");
  mkdirSync(join(home, ".aws"), { recursive: true });
  mkdirSync(root, { recursive: true });
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Pat Person\n\temail = pat@example.com\n[init]\n\tdefaultBranch = main\n");
  writeFileSync(join(home, ".aws/credentials"), `[default]\naws_secret_access_key = ${HOME_SECRET}\n`);
  writeFileSync(join(root, ".env"), `API_TOKEN=${SECRET}\n`);
  writeFileSync(join(root, ".gitignore"), ".env\n");
  writeFileSync(join(root, "README.md"), "# proj\n");
  git(root, "init", "-q");
  addNodeProject(root);
  return { home, root };
}

for (const backend of BACKENDS) {
  test(`${backend.name}: --yolo builds — dist/, a top-level file, sed -i, npm ci, git commit with ~/.gitconfig in the home`, async () => {
    const p = project();
    const calls = [
      bash("mkdir dist && echo ok > dist/a && cat dist/a"),
      bash("echo 'first notes' > NOTES.md && cat NOTES.md"),
      bash("sed -i 's/\"version\": \"1.0.0\"/\"version\": \"1.0.1\"/' package.json && grep '\"version\"' package.json"),
      bash("npm ci --offline --no-audit --no-fund && npm run -s build && cat dist/out.js"),
      bash("mkdir -p target/debug .venv coverage && echo x > target/debug/app && rm -rf target coverage && ls -a"),
      bash("git add -A && git commit -q -m 'build from shiro' && git log -1 --format='%an <%ae> %s'"),
      // In the same run, the secret beside the build: read, encoded, copied and read back.
      bash(`cat "$(printf '.e%s' nv)"; cat "$(printf '.e%s' nv)" | base64; cp "$(printf '.e%s' nv)" env-copy; cat env-copy; true`),
    ];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"], wrap: backend.wrap });
    const out = job.outputs.map((o) => o.output);
    expect(job.code).toBe(0);
    expect(out.every((o) => o.includes("Exit code: 0"))).toBe(true);
    const sent = job.requests.map((r) => r.raw).join("\n");
    for (const form of [SECRET, Buffer.from(`API_TOKEN=${SECRET}\n`).toString("base64").slice(0, 24)]) expect(sent).not.toContain(form);
    expect(out.join("\n")).not.toContain("unable to access");
    expect(readFileSync(join(p.root, "dist/a"), "utf8")).toBe("ok\n");
    expect(readFileSync(join(p.root, "NOTES.md"), "utf8")).toBe("first notes\n");
    expect(JSON.parse(readFileSync(join(p.root, "package.json"), "utf8")).version).toBe("1.0.1");
    expect(readFileSync(join(p.root, "dist/out.js"), "utf8")).toBe(BUILD_OUTPUT);
    expect(existsSync(join(p.root, "node_modules/dep/index.js"))).toBe(true);
    expect(existsSync(join(p.root, ".venv"))).toBe(true);
    expect(existsSync(join(p.root, "target")) || existsSync(join(p.root, "coverage"))).toBe(false);
    expect(out[5]).toContain("Pat Person <pat@example.com> build from shiro");
    expect(git(p.root, "log", "-1", "--format=%s")).toBe("build from shiro");
    expect(git(p.root, "show", "--stat", "HEAD")).toContain("NOTES.md");
  });

  test(`${backend.name}: in the same mode the project's .env and the home's credentials reach nothing — read, encoded, copied, linked or renamed`, async () => {
    const p = project();
    const env = `"$(printf '.e%s' nv)"`; // computed: the guard cannot read it, so the sandbox is what answers
    const calls = [
      bash(`cat ${env}; base64 ${env}; xxd -p ${env}; od -c ${env}; cp ${env} copy.txt && cat copy.txt`),
      bash(`ln ${env} hl.txt && sed 's/./&_/g' hl.txt; mv ${env} moved.txt && cat moved.txt; ln -s ${env} sl.txt && cat sl.txt`),
      bash(`cat ~/"$(printf '.aw%s' s)"/credentials; ${PY} -c "print(open('$HOME/../../' + '.aws/credentials').read())"`),
      bash("cat README.md"), // the control: the project is read in the same mode
    ];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"], wrap: backend.wrap });
    const sent = job.requests.map((r) => r.raw).join("\n");
    if (process.env.SHOW) for (const o of job.outputs) console.log(o.output);
    for (const form of [SECRET, Buffer.from(SECRET).toString("base64").slice(0, 20), Buffer.from(SECRET).toString("hex").slice(0, 20), HOME_SECRET]) expect(sent).not.toContain(form);
    expect(sent).not.toMatch(/g_a_t_e_t_e_s_t/);
    expect(job.outputs[3]!.output).toContain("# proj");
    expect(readFileSync(join(p.root, ".env"), "utf8")).toBe(`API_TOKEN=${SECRET}\n`); // neither moved nor changed
    expect(existsSync(join(p.root, "moved.txt"))).toBe(false);
  });

  test(`${backend.name}: what a command plants in git's hooks and config runs nothing at the person's next git status and git commit`, async () => {
    const p = project();
    const canary = join(p.home, "canary");
    const dotGit = `"$(printf '.gi%s' t)"`;
    const configBefore = readFileSync(join(p.root, ".git/config"));
    const hooksBefore = readdirSync(join(p.root, ".git/hooks")).sort();
    const calls = [
      bash(`printf '#!/bin/sh\\ntouch ${canary}\\n' > ${dotGit}/hooks/pre-commit; chmod +x ${dotGit}/hooks/pre-commit; echo hook=$?`),
      bash(`git config core.fsmonitor 'touch ${canary}'; echo config=$?`),
      bash(`${PY} -c "import os; os.rename('.git/hooks', 'h'); os.mkdir('.git/hooks'); open('.git/hooks/post-commit', 'w').write('#!/bin/sh\\ntouch ${canary}\\n')"; echo rename=$?`),
      bash(`ln ${dotGit}/config cfg && echo '[core]' >> cfg && echo '  fsmonitor = touch ${canary}' >> cfg; echo link=$?`),
      bash(`mv ${dotGit} .git-old; mkdir -p ${dotGit}/hooks; echo moved=$?`),
      bash("git commit -q --allow-empty -m 'plain git still commits' && git log -1 --format=%s"), // the control
    ];
    const job = await scriptedJob(calls, { cwd: p.root, home: p.home, args: ["--yolo"], wrap: backend.wrap });
    if (process.env.SHOW) for (const o of job.outputs) console.log(o.output);
    expect(job.outputs[5]!.output).toContain("plain git still commits");
    expect(readFileSync(join(p.root, ".git/config"))).toEqual(configBefore);
    expect(readdirSync(join(p.root, ".git/hooks")).sort()).toEqual(hooksBefore);
    // The person's own git, as the person runs it after the job.
    const person = { cwd: p.root, env: { ...process.env, HOME: p.home }, stdout: "pipe", stderr: "pipe" } as const;
    Bun.spawnSync(["git", "status"], person);
    expect(Bun.spawnSync(["git", "commit", "-q", "--allow-empty", "-m", "the person's commit"], person).exitCode).toBe(0);
    expect(existsSync(canary)).toBe(false);
  });
}
