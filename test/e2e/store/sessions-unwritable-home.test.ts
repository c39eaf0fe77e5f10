/**
 * Issue 21: a `$SHIRO_HOME` that cannot be written does not stop the job. Under a real read-only
 * mount and a real full file system (a small tmpfs, filled), each in a mount namespace of its own
 * (`unshare -m`: root ignores a folder's 0500, a mount's `ro` it cannot), the run goes on unsaved
 * with one warning line and its usual exit code, `-c` still continues the saved session (in memory),
 * and the home is left as it was: no lock, no empty log, no temp file. A disk that fills during the
 * run says so once too. And the folders shiro makes are 0700.
 */
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startRepl } from "../../support/repl-pty.ts";
import { sweep } from "../../support/sweep-tree.ts";
import { runShiro, tempDir, type ShiroOptions } from "../../support/run-shiro.ts";
import { echoModel, sequenceModel } from "../../support/scripts.ts";
import { itemSummary, sessionFiles } from "../../support/session-runs.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const job = sequenceModel(
  [
    { name: "bash", arguments: { command: "echo built > out.txt" } },
    { name: "write_file", arguments: { path: "report.md", content: "# done\n" } },
  ],
  "Built it and wrote report.md.",
);
const noted: ScriptedModel = sequenceModel([{ name: "remember", arguments: { kind: "fact", text: "out.txt comes from the build" } }], "Noted.");

/** Each test its own server: the requests it records and the faults it serves are that test's alone. */
async function withServer(run: (server: StrictServer) => Promise<void>): Promise<void> {
  const server = await startStrictServer({ models: { "echo-model": echoModel, "gpt-5": job, "noting-model": noted } });
  try {
    await run(server);
  } finally {
    await server.stop();
  }
}

/** Whether this machine lets a test make a mount namespace (root, or a user namespace allowed). */
const mountable = Bun.spawnSync(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=16k tmpfs /mnt"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
if (!mountable) console.warn("sessions-unwritable-home: no mount namespace here (unshare -m refused); the read-only and full homes are not tested");

/** The binary with `$SHIRO_HOME` bind-mounted read-only over itself: a real EROFS for every write. */
const READ_ONLY = ["unshare", "-m", "sh", "-c", 'mount --bind "$SHIRO_HOME" "$SHIRO_HOME" && mount -o remount,bind,ro "$SHIRO_HOME" && exec "$@"', "read-only-home"];

/**
 * The binary with a 1 MB tmpfs over `$SHIRO_HOME`, holding a copy of `<home>.seed` and a file that
 * fills the rest (all but `FREE` bytes). What the home holds is written to `<home>.seed.before` and
 * `.after` from inside the namespace (the tmpfs goes with it).
 */
const FULL = [
  "unshare",
  "-m",
  "sh",
  "-c",
  [
    'H="$SHIRO_HOME"; S="$H.seed"',
    'mount -t tmpfs -o size=1m tmpfs "$H" && cp -a "$S/." "$H/" || exit 99',
    'dd if=/dev/zero of="$H/fill" bs=4k 2>/dev/null; [ "${FREE:-0}" -gt 0 ] && truncate -s "-$FREE" "$H/fill"',
    'sweep() { (cd "$H" && find . -type d -printf "d %m %p\\n" | sort && find . -type f ! -name fill -printf "f %m %s %p\\n" | sort && find . -type f ! -name fill -exec sha256sum {} + | sort); }',
    'sweep > "$S.before"; "$@"; rc=$?; sweep > "$S.after"; exit $rc',
  ].join("\n"),
  "full-home",
];


/** The warning lines of a run's stderr (its progress lines aside). */
const warnings = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("! "));

const shiroOf = (server: StrictServer) => (args: string[], opts: Omit<ShiroOptions, "env"> & { env?: Record<string, string> }) =>
  runShiro(args, { ...opts, env: { OPENAI_BASE_URL: server.url, ...opts.env } });

/** A home with one saved chat in `cwd`: what `-c` continues. */
async function usedHome(shiro: ReturnType<typeof shiroOf>): Promise<{ home: string; cwd: string }> {
  const p = { home: tempDir("rohome"), cwd: tempDir("roproj") };
  const first = await shiro(["-p", "-m", "echo-model", "the saved chat"], p);
  expect(first.code).toBe(0);
  return p;
}

describe.skipIf(!mountable)("a $SHIRO_HOME that cannot be written", () => {
  test.concurrent("read-only: a job, a -c and a --timeout stop all run unsaved, each with one warning line and its usual exit code; the home is untouched", () =>
    withServer(async (server) => {
      const shiro = shiroOf(server);
      const p = await usedHome(shiro);
      const before = sweep(p.home);
      const warning = `! cannot save in ${p.home} (read-only file system); this run goes on unsaved, as with --ephemeral`;

      const jobRun = await shiro(["-p", "--yolo", "build it and report"], { ...p, wrap: READ_ONLY });
      expect([jobRun.code, jobRun.stdout, warnings(jobRun.stderr)]).toEqual([0, "Built it and wrote report.md.\n", [warning]]);
      expect(readFileSync(join(p.cwd, "report.md"), "utf8")).toBe("# done\n");

      const sent = server.requests.length;
      const cont = await shiro(["-c", "-p", "go on"], { ...p, wrap: READ_ONLY });
      expect([cont.code, cont.stdout, warnings(cont.stderr)]).toEqual([0, "You said: go on\n", [warning]]);
      expect(itemSummary(server.requests[sent]!.body.input)).toEqual(["user: the saved chat", "assistant: You said: the saved chat", "user: go on"]);

      server.inject({ hang: true });
      const timedOut = await shiro(["-p", "--timeout", "1", "-m", "echo-model", "wait for me"], { ...p, wrap: READ_ONLY });
      expect([timedOut.code, warnings(timedOut.stderr)]).toEqual([3, [warning, "! stopped at --timeout; the job is not finished and nothing is saved ($SHIRO_HOME cannot be written); raise --timeout and run again"]]);

      expect(sweep(p.home)).toEqual(before);
    }),
  );

  test.concurrent("read-only, the REPL: one warning, the prompt answered, /save says nothing is saved, no resume hint on quitting; the home untouched", () =>
    withServer(async (server) => {
      const p = await usedHome(shiroOf(server));
      const before = sweep(p.home);
      await using repl = await startRepl({ ...p, baseUrl: server.url, args: ["-c", "-m", "echo-model"], wrap: READ_ONLY });
      await repl.idle(undefined, 10_000);
      let mark = repl.mark();
      await repl.send("go on");
      await repl.waitFor("You said: go on", { since: mark });
      await repl.idle(mark);
      mark = repl.mark();
      await repl.send("/save");
      await repl.waitFor("not saved: $SHIRO_HOME cannot be written", { since: mark });
      await repl.idle(mark);
      expect(await repl.quit()).toBe(0);
      const screen = repl.screen();
      expect(screen.split("\n").filter((line) => line.startsWith("! "))).toEqual([`! cannot save in ${p.home} (read-only file system); this run goes on unsaved, as with --ephemeral`]);
      expect(screen).not.toContain("resume with");
      expect(server.requests.at(-1)!.body.input.map((i: any) => i.content?.[0]?.text)).toEqual(["the saved chat", "You said: the saved chat", "go on"]);
      expect(sweep(p.home)).toEqual(before);
    }),
  );

  for (const [label, free, warning] of [
    ["full", 0, (home: string) => `! cannot save in ${home} (no space left on device); this run goes on unsaved, as with --ephemeral`],
    ["filling up during the run (8 KB left)", 8192, (home: string) => `! could not save in ${home} (no space left on device); the rest of this run goes on unsaved`],
  ] as const)
    test.concurrent(`${label}: the job and a -c run unsaved with one warning line; nothing half-written is left`, () =>
      withServer(async (server) => {
        const shiro = shiroOf(server);
        const p = await usedHome(shiro);
        cpSync(p.home, `${p.home}.seed`, { recursive: true });
        const env = { FREE: String(free) };
        const listing = () => [readFileSync(`${p.home}.seed.before`, "utf8"), readFileSync(`${p.home}.seed.after`, "utf8")] as const;
        // Full from the start, the home is left as it was. Filled during the run, what got onto the disk is whole:
        // the continued log's lines, a checkpoint record; no log nothing lists, no lock, no temp or empty file.
        const checkLeft = ([before, after]: readonly [string, string]) => {
          if (free === 0) return expect(after).toBe(before);
          const files = (text: string) => text.split("\n").filter((l) => l.startsWith("f ")).map((l) => l.split(" ").slice(2));
          const logs = (text: string) => files(text).filter(([, path]) => path!.startsWith("./sessions/")).map(([, path]) => path);
          expect(logs(after)).toEqual(logs(before));
          expect(files(after).filter(([size, path]) => size === "0" || /\.(tmp|lock)$/.test(path!))).toEqual([]);
        };

        const jobRun = await shiro(["-p", "--yolo", "build it and report"], { ...p, env, wrap: FULL });
        expect([jobRun.code, jobRun.stdout, warnings(jobRun.stderr)]).toEqual([0, "Built it and wrote report.md.\n", [warning(p.home)]]);
        expect(readFileSync(join(p.cwd, "out.txt"), "utf8")).toBe("built\n");
        checkLeft(listing());

        const sent = server.requests.length;
        const cont = await shiro(["-c", "-p", "go on"], { ...p, env, wrap: FULL });
        expect([cont.code, cont.stdout, warnings(cont.stderr)]).toEqual([0, "You said: go on\n", [warning(p.home)]]);
        expect(itemSummary(server.requests[sent]!.body.input)).toEqual(["user: the saved chat", "assistant: You said: the saved chat", "user: go on"]);
        checkLeft(listing());
      }),
    );
});

test.concurrent("the folders shiro makes for its state are 0700, $SHIRO_HOME itself included", () =>
  withServer(async (server) => {
    const shiro = shiroOf(server);
    const home = join(tempDir("modes"), "shiro-home");
    const cwd = tempDir("modesproj");
    const run = await shiro(["-p", "--yolo", "-m", "noting-model", "note how the build works"], { home, cwd });
    expect([run.code, run.stdout]).toEqual([0, "Noted.\n"]);
    expect(sessionFiles(home)).toHaveLength(1);
    for (const folder of ["", "sessions", "sessions/index", "checkpoints", "memory"]) {
      expect(existsSync(join(home, folder))).toBe(true);
      expect([folder, statSync(join(home, folder)).mode & 0o777]).toEqual([folder, 0o700]);
    }
  }),
);
