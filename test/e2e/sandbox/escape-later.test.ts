/**
 * Issue 18, what outlives a command: background processes (ended with it), a fork burst (capped),
 * a secret moved or planted behind `touch -d` (kept, masked, counted), and git code planted to run
 * later in the person's own git (never fires). Judged by outcome: /proc, the files on disk, the
 * markers the model was sent, the canaries; each with a control that the same mode still works.
 */
import { describe, expect, test } from "bun:test";
import { randomInt } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { plainBash, walk } from "../../support/attack-layout.ts";
import { waitUntil } from "../../support/wait-until.ts";
import { bwrapAbsent, escapeLayout, escapeRun, exists, isRoot, pathsOf, type EscapeLayout } from "../../support/escape-layout.ts";

const hidden = (name: string) => `$(echo ${Buffer.from(name).toString("base64")} | base64 -d)`;
const ranTags = (outputs: string[]) => outputs.map((o) => o.match(/ran-[\w-]+/)?.[0] ?? "(did not run)");

/** Processes on this machine whose command line holds `needle`. */
function alive(needle: string): number[] {
  const found = Bun.spawnSync(["pgrep", "-f", needle]).stdout.toString().trim();
  return found ? found.split("\n").map(Number) : [];
}

describe.skipIf(bwrapAbsent)("processes end with their command (needs /usr/bin/bwrap)", () => {
  test.concurrent("50 background `sleep`s a command leaves behind are gone once it ends", async () => {
    const l = escapeLayout("escape-procs");
    const needle = `30.${randomInt(100000, 999999)}`;
    const run = await escapeRun(l, [`for i in $(seq 50); do sleep ${needle} & done; sleep 0.3; echo "alive=$(pgrep -c -x sleep)"; echo ran-burst`, "cat README"], { args: ["--yolo"] });
    // Control: they really started, and the next command still runs.
    expect(run.outputs[0]).toContain("alive=50");
    expect(run.outputs[1]).toContain(l.readme.trim());
    await waitUntil(() => alive(needle).length === 0, `no process with ${needle} in its command line`);
  }, 25_000);

  test.concurrent.skipIf(isRoot)("a burst of 2000 forks is capped below 2000 and the machine stays usable (skipped as root: RLIMIT_NPROC does not bind uid 0)", async () => {
    const l = escapeLayout("escape-forks");
    const needle = `40.${randomInt(100000, 999999)}`;
    const run = await escapeRun(l, [`n=0; for i in $(seq 2000); do sleep ${needle} 2>/dev/null & [ $? -eq 0 ] && n=$((n+1)); done 2>/dev/null; echo "alive=$(pgrep -c -f ${needle})"; echo ran-forks`, "cat README"], {
      args: ["--yolo"],
    });
    const count = Number(run.outputs[0]?.match(/alive=(\d+)/)?.[1] ?? "NaN");
    expect(count).toBeLessThan(2000);
    expect(run.outputs[1]).toContain(l.readme.trim());
    await waitUntil(() => alive(needle).length === 0, `no process with ${needle} in its command line`);
  }, 25_000);
});

describe.skipIf(bwrapAbsent)("a secret moved or planted keeps its identity (needs /usr/bin/bwrap)", () => {
  const withApp = (prefix: string) => {
    const l = escapeLayout(prefix);
    const bytes = `APP_KEY=appsecret${randomInt(1e9, 9e9)}\n`;
    mkdirSync(join(l.root, "app"));
    writeFileSync(join(l.root, "app/.env"), bytes);
    writeFileSync(join(l.root, "app/main.ts"), "export {};\n");
    l.markers.set(bytes.trim().split("=")[1]!, "home/code/proj/app/.env");
    return { l, bytes };
  };

  for (const [name, command] of [
    ["mv app app2", "mv app app2; echo ran-mv"],
    ["mv app app2, then touch -d puts the folder's time back", 't=$(stat -c %y app); mv app app2; touch -d "$t" app2; echo ran-mv'],
  ] as const) {
    test.concurrent(`--yolo ${name}: app2/.env keeps its bytes, stays masked, and is no denial`, async () => {
      const { l, bytes } = withApp("escape-move");
      const run = await escapeRun(l, [command, `cat app2/${hidden(".env")}; cat app2/main.ts; echo ran-cat`], { args: ["--yolo"] });
      expect(ranTags(run.outputs)).toEqual(["ran-mv", "ran-cat"]);
      expect(readFileSync(join(l.root, "app2/.env"), "utf8")).toBe(bytes);
      expect(exists(join(l.root, "app"))).toBe(false); // the move itself happened: a --yolo write works
      expect(run.bodies.some((b) => b.includes(bytes.trim()))).toBe(false);
      expect(run.code).toBe(0);
    }, 25_000);
  }

  test.concurrent("--yolo plants deploy/.env.prod and touch -d's deploy back: kept on disk, exit 4, never shown", async () => {
    const l = escapeLayout("escape-plant");
    mkdirSync(join(l.root, "deploy"));
    writeFileSync(join(l.root, "deploy/run.sh"), "echo deploy\n");
    const plant = `t=$(stat -c %y deploy); echo "PROD_TOKEN=planted$(od -An -N8 -tx1 /dev/urandom | tr -d ' \\n')" > deploy/${hidden(".env.prod")}; touch -d "$t" deploy; echo ran-plant`;
    const run = await escapeRun(l, [plant, `cat deploy/${hidden(".env.prod")}; cat deploy/run.sh; echo ran-cat`], { args: ["--yolo"] });
    expect(ranTags(run.outputs)).toEqual(["ran-plant", "ran-cat"]);
    const kept = readFileSync(join(l.root, "deploy/.env.prod"), "utf8");
    const value = kept.match(/PROD_TOKEN=(planted[0-9a-f]{16})/)?.[1];
    expect(value).toBeDefined();
    expect(run.outputs[1]).toContain("echo deploy"); // control: the folder is still read
    expect(run.bodies.some((b) => b.includes(value!))).toBe(false);
    expect(run.stdout).not.toContain(value!);
    expect(run.code).toBe(4);
  }, 25_000);
});

const PERSON_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "p", GIT_AUTHOR_EMAIL: "p@x", GIT_COMMITTER_NAME: "p", GIT_COMMITTER_EMAIL: "p@x" };

function git(l: EscapeLayout, cwd: string, ...args: string[]) {
  Bun.spawnSync(["git", ...args], { cwd, env: { PATH: process.env.PATH!, HOME: l.home, ...PERSON_ENV }, stdin: "ignore", stdout: "ignore", stderr: "ignore", timeout: 10_000 });
}

function repo(prefix: string) {
  const l = escapeLayout(prefix);
  writeFileSync(join(l.root, ".gitignore"), ".env\n");
  git(l, l.root, "init", "-q");
  git(l, l.root, "add", "-A");
  git(l, l.root, "commit", "-qm", "first");
  const canary = (name: string) => join(l.base, `canary-${name}`);
  const commands = [
    `git init -q sub && git -C sub config core.fsmonitor "touch ${canary("sub")}"; echo ran-sub`,
    // The name computed, so the guard cannot see it: what stops this one is the sandbox's aftermath.
    `g=x/${hidden(".git")}; mkdir -p $g/objects $g/refs && echo 'ref: refs/heads/main' > $g/HEAD && printf '[core]\\n\\tfsmonitor = touch ${canary("x")}\\n' > $g/config; echo ran-x`,
    `git config core.fsmonitor 'touch ${canary("proj")}'; echo ran-proj`,
    `mkdir -p tpl/hooks && printf '#!/bin/sh\\ntouch ${canary("hook")}\\n' > tpl/hooks/post-commit && cp tpl/hooks/post-commit tpl/hooks/post-checkout && chmod +x tpl/hooks/*; git init -q --template=tpl; echo ran-template`,
  ];
  return { l, canary, commands };
}

/** What the person does next, outside shiro: statuses (fsmonitor), a commit and a checkout (hooks). */
function personsDay(l: EscapeLayout) {
  git(l, l.root, "status");
  git(l, join(l.root, "sub"), "status");
  git(l, join(l.root, "x"), "status");
  git(l, l.root, "commit", "-q", "--allow-empty", "-m", "x");
  git(l, l.root, "checkout", "-q", "-b", "later");
}

const canaries = (l: EscapeLayout) => walk(l.base).filter((e) => e.rel.split("/").at(-1)!.startsWith("canary-")).map((e) => e.rel.split("/").at(-1)!);

describe.skipIf(bwrapAbsent)("git code planted to run later never fires (needs /usr/bin/bwrap)", () => {
  test.concurrent("control: the same commands in plain bash plant code the person's git runs", async () => {
    const { l, commands } = repo("escape-git-control");
    for (const command of commands) await plainBash(pathsOf(l), command);
    personsDay(l);
    expect(canaries(l).sort()).toEqual(["canary-hook", "canary-proj", "canary-sub", "canary-x"]);
  }, 25_000);

  test.concurrent("--yolo: after the run, the person's git status, commit and checkout fire no canary", async () => {
    const { l, commands } = repo("escape-git");
    const run = await escapeRun(l, [...commands, "echo inside > inside.txt; git status --short; echo ran-status"], { args: ["--yolo"] });
    expect(ranTags(run.outputs), run.outputs.join("\n----\n")).toEqual(["ran-sub", "ran-x", "ran-proj", "ran-template", "ran-status"]);
    personsDay(l);
    expect(canaries(l)).toEqual([]);
    expect(exists(join(l.root, "x/.git/config"))).toBe(false); // moved aside, not left for the person's git
    expect(run.code).toBe(4);
    // Control: the same mode still writes in the project, and plain git still works there.
    expect(readFileSync(join(l.root, "inside.txt"), "utf8")).toBe("inside\n");
    expect(run.outputs[4]).toContain("inside.txt");
  }, 25_000);
});
