/**
 * `--allow`/`--deny` and SHIRO_PERMISSIONS decide exactly as the same rules in config.json do: one
 * table of cases, each run three ways through the binary, compared by what the model was told and
 * what is on disk. Rules from the command line come after the file's (the last match wins), and
 * none of them reaches the guard.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { GUARD_SECRET } from "../../support/expect-refused.ts";
import { secretProject } from "../../support/guard-projects.ts";
import { FINAL, scriptedJob, type JobResult } from "../../support/scripted-job.ts";
import type { PlannedCall } from "../../support/scripts.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasBwrap = toolHere("bwrap", Bun.which("bwrap") !== null);

type FlagRule = { decision: "allow" | "deny"; tool?: string; pattern: string };
type Case = { name: string; rules: FlagRule[]; files?: Record<string, string>; calls: PlannedCall[]; told: (string | RegExp)[] };

const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const write = (path: string): PlannedCall => ({ name: "write_file", arguments: { path, content: "new\n" } });
const edit = (path: string): PlannedCall => ({ name: "edit_file", arguments: { path, old_string: "old", new_string: "new" } });
const read = (path: string): PlannedCall => ({ name: "read_file", arguments: { path } });
const needsApproval = (what: string) => `Denied: ${what} needs approval, and this run cannot ask (print mode). Allow it with a permission rule (--allow, or config.json) or run with --yolo.`;
const denied = (rule: string) => new RegExp(`^Denied: permission rule ${rule} \\((config\\.json|SHIRO_PERMISSIONS|--deny)\\)\\.$`);
const CREATED = "Created notes/x.md (1 line)";

const CASES: Case[] = [
  { name: "a command rule lets that command run; another still needs approval", rules: [{ decision: "allow", tool: "bash", pattern: "echo *" }], calls: [bash("echo hi"), bash("echo a && touch t.txt")], told: ["hi\n\nExit code: 0", needsApproval("bash: touch t.txt")] },
  { name: "allow every command, then deny rm: rm is denied (the last match wins)", rules: [{ decision: "allow", tool: "bash", pattern: "*" }, { decision: "deny", tool: "bash", pattern: "rm *" }], files: { "keep.txt": "k\n" }, calls: [bash("rm -f keep.txt"), bash("echo ok")], told: [denied("deny bash rm \\*"), "ok\n\nExit code: 0"] },
  { name: "deny echo, then allow echo hi: the later, narrower rule wins", rules: [{ decision: "deny", tool: "bash", pattern: "echo *" }, { decision: "allow", tool: "bash", pattern: "echo hi*" }], calls: [bash("echo hi"), bash("echo bye")], told: ["hi\n\nExit code: 0", denied("deny bash echo \\*")] },
  { name: "a path rule: edits under src/ allowed, elsewhere asked (denied here)", rules: [{ decision: "allow", tool: "edit_file", pattern: "src/**" }], files: { "src/a.ts": "old\n", "b.ts": "old\n" }, calls: [edit("src/a.ts"), edit("b.ts")], told: [/^Edited src\/a\.ts/, needsApproval("edit_file b.ts")] },
  { name: "a tool alone allows every call of it", rules: [{ decision: "allow", tool: "write_file", pattern: "**" }], calls: [write("notes/x.md")], told: [CREATED] },
  { name: "a rule for every tool (*): lock files denied even to an allowed tool", rules: [{ decision: "allow", tool: "write_file", pattern: "**" }, { decision: "deny", pattern: "**/*.lock" }], calls: [write("bun.lock"), write("notes/x.md")], told: [denied("deny \\*\\*/\\*\\.lock"), CREATED] },
  { name: "a rule can lift a default: reading .env.test", rules: [{ decision: "allow", tool: "read_file", pattern: ".env.test" }], files: { ".env.test": "TEST_ONLY=1\n" }, calls: [read(".env.test")], told: [/TEST_ONLY=1/] },
  { name: "no rule reaches the guard: allow every command and every write, a secret is still not written", rules: [{ decision: "allow", tool: "bash", pattern: "*" }, { decision: "allow", tool: "write_file", pattern: "**" }], calls: [bash("echo x > .env"), write(".env")], told: [GUARD_SECRET, GUARD_SECRET] },
];

/** `{decision, tool, pattern}` as the command line writes it: `tool:pattern`, `*:pattern` for every tool, the tool alone for `**`. */
const asFlags = (rules: FlagRule[]) => rules.flatMap((r) => [`--${r.decision}`, r.tool && r.pattern === "**" ? r.tool : `${r.tool ?? "*"}:${r.pattern}`]);

type Way = "config.json" | "flags" | "SHIRO_PERMISSIONS";

async function runWay(c: Case, way: Way): Promise<{ job: JobResult; disk: Record<string, string> }> {
  const p = secretProject(c.files);
  if (way === "config.json") writeFileSync(join(p.home, "config.json"), JSON.stringify({ permissions: c.rules }));
  const job = await scriptedJob(c.calls, {
    cwd: p.root,
    home: p.home,
    args: ["--sandbox", "off", ...(way === "flags" ? asFlags(c.rules) : [])],
    ...(way === "SHIRO_PERMISSIONS" ? { env: { SHIRO_PERMISSIONS: JSON.stringify(c.rules) } } : {}),
  });
  return { job, disk: filesUnder(p.root) };
}

function filesUnder(root: string, dir = root): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesUnder(root, path));
    else out[relative(root, path)] = readFileSync(path, "utf8");
  }
  return out;
}

// Where a deny rule came from is named in its denial; everything else must be the same byte for byte.
const sameness = ({ job, disk }: { job: JobResult; disk: Record<string, string> }) => ({
  code: job.code,
  stdout: job.stdout,
  told: job.outputs.map((o) => o.output.replace(/ \((config\.json|SHIRO_PERMISSIONS|--deny)\)\.$/, " (source).")),
  disk,
});

describe("--allow/--deny and SHIRO_PERMISSIONS decide as config.json's rules do", () => {
  for (const c of CASES) {
    test.concurrent(c.name, async () => {
      const [file, flags, env] = await Promise.all([runWay(c, "config.json"), runWay(c, "flags"), runWay(c, "SHIRO_PERMISSIONS")]);
      expect(file.job.outputs.map((o) => o.output)).toEqual(c.told.map((t) => (typeof t === "string" ? t : expect.stringMatching(t))));
      expect(file.job.stdout).toBe(FINAL + "\n");
      expect(sameness(flags)).toEqual(sameness(file));
      expect(sameness(env)).toEqual(sameness(file));
      for (const [way, run] of [["--deny", flags], ["SHIRO_PERMISSIONS", env], ["config.json", file]] as const)
        for (const o of run.job.outputs) if (o.output.startsWith("Denied: permission rule")) expect(o.output).toEndWith(`(${way}).`);
    });
  }
});

describe("rules from the command line come after the file's", () => {
  test("config allows echo, --deny takes echo bye back; config denies rm, --allow gives it back — and SHIRO_PERMISSIONS sits between", async () => {
    const p = secretProject({ "gone.txt": "x\n" });
    const permissions = [{ decision: "allow", tool: "bash", pattern: "echo *" }, { decision: "deny", tool: "bash", pattern: "rm *" }];
    writeFileSync(join(p.home, "config.json"), JSON.stringify({ permissions }));
    const job = await scriptedJob([bash("echo hi"), bash("echo bye"), bash("rm gone.txt"), bash("ls")], {
      cwd: p.root,
      home: p.home,
      args: ["--sandbox", "off", "--deny", "bash:echo bye*", "--allow", "bash:rm gone.txt"],
      env: { SHIRO_PERMISSIONS: JSON.stringify([{ decision: "allow", tool: "bash", pattern: "echo bye*" }, { decision: "deny", tool: "bash", pattern: "ls*" }]) },
    });
    expect(job.outputs.map((o) => o.output)).toEqual([
      "hi\n\nExit code: 0",
      "Denied: permission rule deny bash echo bye* (--deny).",
      "(no output)\n\nExit code: 0",
      "Denied: permission rule deny bash ls* (SHIRO_PERMISSIONS).",
    ]);
    expect(Object.keys(filesUnder(p.root))).not.toContain("gone.txt");
  });
});

test.skipIf(!hasBwrap)("an allowed command still runs in the sandbox: --allow bash under --sandbox read-only cannot write", async () => {
  const p = secretProject();
  const job = await scriptedJob([bash("touch t.txt")], { cwd: p.root, home: p.home, args: ["--sandbox", "read-only", "--allow", "bash"] });
  expect(job.outputs[0]!.output).toContain("Read-only file system");
  expect(existsSync(join(p.root, "t.txt"))).toBe(false);
});
