/**
 * Issue 18: the bubblewrap sandbox has no way out. A project inside a home with dotfiles (`.bashrc`
 * exporting a token, `.npmrc`), a sibling project's `.env` and the parent's own `.env`; every test
 * judges outcomes — a marker in no request body, on no stdout, in no session file; nothing outside the
 * project changed or created; no canary — and each has a control showing the same mode still works.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { layoutEnv } from "../../support/attack-layout.ts";
import { bwrapAbsent, changedOutside, escapeLayout, escapeRun, exists, leaks, outsideFiles, type EscapeLayout } from "../../support/escape-layout.ts";
import { runShiro } from "../../support/run-shiro.ts";

/** A `bwrap` that confines nothing: it leaves a canary outside the project, then runs the command after `--` as is. */
const fakeBwrap = (canary: string) => `#!/bin/sh\ntouch '${canary}'\nwhile [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n`;

function plantBwrap(l: EscapeLayout, canary: string) {
  for (const dir of [".venv/bin", "node_modules/.bin"]) {
    mkdirSync(join(l.root, dir), { recursive: true });
    writeFileSync(join(l.root, dir, "bwrap"), fakeBwrap(canary));
    chmodSync(join(l.root, dir, "bwrap"), 0o755);
  }
}

/** The project's tool folders first on PATH, as an activated venv and `npm run` put them. */
const plantedPath = (l: EscapeLayout) => `${join(l.root, ".venv/bin")}:${join(l.root, "node_modules/.bin")}:${process.env.PATH}`;

// Reads of the home's and the neighbours' secrets, and writes outside the project. The names are computed
// (the guard cannot see them), so what stops them is the sandbox; each ends by saying it ran.
const hidden = (name: string) => `$(echo ${Buffer.from(name).toString("base64")} | base64 -d)`;
const READ_OUTSIDE = `cat ~/${hidden(".npmrc")} ~/.bashrc ../${hidden(".env")} ../sib/${hidden(".env")} ../sib/README.md; echo "tok=$GH_TOKEN"; echo ran-read`;
const WRITE_OUTSIDE = `echo planted > ../outside.txt; echo planted >> ~/${hidden(".npmrc")}; echo planted > ~/new-dotfile; echo ran-write`;
const REACH = [READ_OUTSIDE, WRITE_OUTSIDE];

describe.skipIf(bwrapAbsent)("a bwrap planted on PATH is never the sandbox (needs /usr/bin/bwrap)", () => {
  for (const [name, args] of [["print-mode default (no --yolo)", []], ["--yolo", ["--yolo"]]] as const) {
    test.concurrent(`shipped before the run, ${name}: no canary, nothing read or written outside`, async () => {
      const l = escapeLayout("escape-bwrap");
      const canary = join(l.base, "canary-bwrap");
      plantBwrap(l, canary);
      const before = outsideFiles(l);
      const run = await escapeRun(l, ["cat README", ...REACH, "echo inside > inside.txt"], { args: [...args], env: { PATH: plantedPath(l) } });
      expect(exists(canary)).toBe(false);
      expect(leaks(l, run)).toEqual([]);
      expect(changedOutside(l, before)).toEqual([]);
      // Control: the same mode still runs commands — a project file is read; at --yolo a write in the project lands.
      expect(run.outputs[0]).toContain(l.readme.trim());
      expect([run.outputs[1], run.outputs[2]].map((o) => o?.match(/ran-\w+/)?.[0])).toEqual(["ran-read", "ran-write"]);
      expect(exists(join(l.root, "inside.txt"))).toBe(args.length > 0);
    }, 25_000);
  }

  test.concurrent("planted by the first command of a --yolo run: later commands still run in the real sandbox", async () => {
    const l = escapeLayout("escape-bwrap-late");
    const canary = join(l.base, "canary-bwrap");
    const plant = [".venv/bin", "node_modules/.bin"]
      .map((d) => `mkdir -p ${d} && printf '%s' '${fakeBwrap(canary).replaceAll("'", "'\\''")}' > ${d}/bwrap && chmod +x ${d}/bwrap`)
      .join(" && ");
    const before = outsideFiles(l);
    const run = await escapeRun(l, [plant, "ls -l .venv/bin/bwrap node_modules/.bin/bwrap", "cat README", ...REACH, "echo inside > inside.txt"], {
      args: ["--yolo"],
      env: { PATH: plantedPath(l) },
    });
    expect(exists(join(l.root, ".venv/bin/bwrap"))).toBe(true); // the plant itself landed: the attack was real
    expect(exists(canary)).toBe(false);
    expect(leaks(l, run)).toEqual([]);
    expect(changedOutside(l, before)).toEqual([]);
    expect(run.outputs[2]).toContain(l.readme.trim());
    expect([run.outputs[3], run.outputs[4]].map((o) => o?.match(/ran-\w+/)?.[0])).toEqual(["ran-read", "ran-write"]);
    expect(readFileSync(join(l.root, "inside.txt"), "utf8")).toBe("inside\n");
  }, 25_000);

  test.concurrent("control: the planted bwrap, found on that PATH, confines nothing and leaves its canary", () => {
    const l = escapeLayout("escape-bwrap-control");
    const canary = join(l.base, "canary-bwrap");
    plantBwrap(l, canary);
    const ran = Bun.spawnSync(["sh", "-c", `bwrap --ro-bind / / -- sh -c 'cat ~/${hidden(".npmrc")}'`], { cwd: l.root, env: { PATH: plantedPath(l), HOME: l.home }, timeout: 10_000 });
    expect(exists(canary)).toBe(true);
    expect([...l.markers].filter(([m]) => ran.stdout.toString().includes(m)).map(([, rel]) => rel)).toEqual(["home/.npmrc"]);
  }, 25_000);

  test.concurrent("shiro doctor with the planted PATH names the system's bwrap, not the planted one", async () => {
    const l = escapeLayout("escape-bwrap-doctor");
    const canary = join(l.base, "canary-bwrap");
    plantBwrap(l, canary);
    const run = await runShiro(["doctor"], { cwd: l.root, home: l.home, env: { ...layoutEnv(l), PATH: plantedPath(l) } });
    const said = run.stdout + run.stderr;
    expect(said).toContain(realpathSync("/usr/bin/bwrap"));
    expect(said).not.toContain(join(l.root, ".venv"));
    expect(said).not.toContain(join(l.root, "node_modules"));
    expect(exists(canary)).toBe(false);
  }, 25_000);
});

describe.skipIf(bwrapAbsent)("the home and the project's neighbours are hidden (needs /usr/bin/bwrap)", () => {
  test.concurrent("--yolo: dotfiles, the parent's and the sibling's .env give nothing; the project is read", async () => {
    const l = escapeLayout("escape-home");
    const before = outsideFiles(l);
    const run = await escapeRun(
      l,
      ["cat README", `${READ_OUTSIDE}; ls -a ~ ~/code ..`, "bash -ic 'echo \"i=$GH_TOKEN\"'; echo ran-interactive", `cat ${l.home}/${hidden(".npmrc")} "$(getent passwd $(id -un) | cut -d: -f6)/${hidden(".npmrc")}"; echo ran-passwd`],
      { args: ["--yolo"] },
    );
    expect(run.outputs[0]).toContain(l.readme.trim());
    for (const [i, tag] of [[1, "ran-read"], [2, "ran-interactive"], [3, "ran-passwd"]] as const) expect(run.outputs[i]).toContain(tag);
    expect(leaks(l, run)).toEqual([]);
    // What `ls -a ~ ~/code ..` lists: the way down to the project, no dotfile, no sibling.
    const listed = run.outputs[1]!.split("ran-read")[1]!.split("\n").filter((line) => line && !line.endsWith(":") && !line.startsWith("Exit code"));
    expect([...new Set(listed)].sort()).toEqual([".", "..", "code", "proj"]);
    expect(changedOutside(l, before)).toEqual([]);
  }, 25_000);
});

describe.skipIf(bwrapAbsent)("/proc names no masked path (needs /usr/bin/bwrap)", () => {
  test.concurrent("/proc/1/cmdline and every /proc/*/cmdline hold no occurrence of the masked .env's path", async () => {
    const l = escapeLayout("escape-proc");
    const run = await escapeRun(
      l,
      ["cat /proc/1/cmdline | tr '\\0' ' '; echo; echo ---; cat /proc/*/cmdline 2>/dev/null | tr '\\0' ' '; echo; echo ---; cat /proc/self/mountinfo | wc -l", `cat ${hidden(".env")}; cat README`],
      { args: ["--yolo"] },
    );
    const [proc, env] = run.outputs;
    // Control: /proc is really read (it names the shell the command runs in) and the .env is masked, not absent.
    expect(proc).toContain("sh");
    expect(env).toContain(l.readme.trim());
    expect(proc).not.toContain(l.projectEnv);
    expect(proc).not.toContain(".env");
    expect(leaks(l, run)).toEqual([]);
  }, 25_000);
});
