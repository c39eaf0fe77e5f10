/**
 * Issue 31, the honest side of putting hooks in the sandbox, on bubblewrap and on Landlock (no user
 * namespaces, simulated), through the binary: a PostToolUse formatter still rewrites the project (and
 * `shiro undo` puts back what it changed), with its JSON on stdin and the project's folder in its
 * environment, while a PreToolUse hook only reads; a hook past its timeout is killed with all it
 * started; what a hook leaves is judged as a command's (a secret file it made is reported, a planted
 * repository quarantined); a `notify` the person marked `"sandbox": false` reaches the desktop (a Unix
 * socket in the home) and the same one boxed cannot. Without a sandbox, a project's hooks do not run
 * at all (one line), the person's run as they always did.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { randomInt } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BOXES, hookHome, hookJob, type Box } from "../../support/hook-attack.ts";
import { runShiro } from "../../support/run-shiro.ts";
import type { PlannedCall } from "../../support/scripts.ts";
import { waitUntil } from "../../support/wait-until.ts";

const listeners: { stop(closeActive?: boolean): void }[] = [];
afterAll(() => listeners.forEach((l) => l.stop(true)));

const write = (path: string, content: string): PlannedCall => ({ name: "write_file", arguments: { path, content } });
const read = (path: string): PlannedCall => ({ name: "read_file", arguments: { path } });
const hook = (command: string, extra: object = {}) => ({ type: "command", command, ...extra });
const FORMAT_MAKEFILE = "fmt:\n\t@for f in *.txt; do sed -i 's/[[:space:]]*$$//' \"$$f\"; done\n";

describe("hooks doing honest work in the sandbox", () => {
  for (const box of BOXES) {
    test.concurrent(`a project's PostToolUse \`make -s fmt\` formats the project, \`shiro undo\` puts it back; a PreToolUse hook writes nothing (${box.name})`, async () => {
      const fx = hookHome();
      fx.put("Makefile", FORMAT_MAKEFILE);
      fx.put("notes.txt", "kept   \nas is\t\n");
      const post = [hook("make -s fmt"), hook('cat > post-input.json; printf "%s\\n%s\\n" "$SHIRO_PROJECT_DIR" "$CLAUDE_PROJECT_DIR" > post-dirs.txt')];
      fx.put(".shiro/settings.json", JSON.stringify({ hooks: { PreToolUse: [{ hooks: [hook("echo pre > pre-hook.txt", { onFailure: "allow" })] }], PostToolUse: [{ matcher: "write_file", hooks: post }] } }));
      const job = await hookJob(fx, box, [write("new.txt", "fresh  \n"), read("new.txt")], ["--hooks", ".shiro/settings.json"]);
      expect(job.code).toBe(0);
      expect(readFileSync(join(fx.root, "new.txt"), "utf8")).toBe("fresh\n");
      expect(readFileSync(join(fx.root, "notes.txt"), "utf8")).toBe("kept\nas is\n");
      expect(job.outputs[1]!.output).toContain("fresh\n");
      expect(job.outputs[1]!.output).not.toContain("fresh  ");
      expect(JSON.parse(readFileSync(join(fx.root, "post-input.json"), "utf8"))).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "write_file", tool_input: { path: "new.txt" } });
      expect(readFileSync(join(fx.root, "post-dirs.txt"), "utf8")).toBe(`${fx.root}\n${fx.root}\n`);
      // PreToolUse hooks run read-only: the write failed (a warning, as onFailure allows), the calls went on.
      expect(existsSync(join(fx.root, "pre-hook.txt"))).toBe(false);
      expect(job.stderr).toContain("the PreToolUse hook `echo pre > pre-hook.txt` exited 1");

      const undo = await runShiro(["undo"], { cwd: fx.root, home: fx.layout.shiroHome, env: fx.env, ...(box.wrap ? { wrap: box.wrap } : {}) });
      expect(undo.code).toBe(0);
      expect(readFileSync(join(fx.root, "notes.txt"), "utf8")).toBe("kept   \nas is\t\n");
      expect(existsSync(join(fx.root, "new.txt"))).toBe(false);
    }, 60_000);

    test.concurrent(`a boxed hook past its timeout is killed with what it started, and its call blocked promptly (${box.name})`, async () => {
      const fx = hookHome();
      const needle = `31.${randomInt(100000, 999999)}`;
      writeFileSync(join(fx.layout.shiroHome, "config.json"), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [hook(`sleep ${needle} & sleep ${needle}`, { timeout: 1 })] }] } }));
      const job = await hookJob(fx, box, [write("made.txt", "x\n")]);
      expect(job.outputs[0]!.output).toContain("did not finish within 1 s and was killed, so this was blocked");
      expect(existsSync(join(fx.root, "made.txt"))).toBe(false);
      await waitUntil(() => Bun.spawnSync(["pgrep", "-f", needle]).exitCode === 1, `no process with ${needle} in its command line`);
    }, 60_000);

    test.concurrent(`what a PostToolUse hook leaves is judged as a command's: a secret file reported, a planted repository quarantined (${box.name})`, async () => {
      const fx = hookHome();
      const plant = `echo "HOOK_TOKEN=made-by-hook" > .env.hook; git init -q sub && git -C sub config core.fsmonitor "touch ${fx.home}/canary"; echo done > hook-done.txt`;
      writeFileSync(join(fx.layout.shiroHome, "config.json"), JSON.stringify({ hooks: { PostToolUse: [{ hooks: [hook(plant)] }] } }));
      const job = await hookJob(fx, box, [write("a.txt", "a\n")]);
      expect(readFileSync(join(fx.root, "hook-done.txt"), "utf8")).toBe("done\n"); // it ran, writing the project
      expect(job.stderr).toContain("the PostToolUse hook `echo \"HOOK_TOKEN=made-by-hook\"");
      expect(job.stderr).toContain("Denied: it created secret file .env.hook; kept for the user but hidden from every tool");
      expect(job.stderr).toMatch(/Denied: it made the git repository sub\/\.git, and its config sets core\.fsmonitor, .* moved to \S*quarantine/);
      expect(existsSync(join(fx.root, "sub/.git"))).toBe(false);
      expect(readFileSync(join(fx.root, ".env.hook"), "utf8")).toBe("HOOK_TOKEN=made-by-hook\n"); // kept, never deleted
    }, 60_000);

    test.concurrent(`a notify marked "sandbox": false reaches the desktop's socket; the same one boxed cannot (${box.name})`, async () => {
      const run = async (sandbox: boolean) => {
        const fx = hookHome();
        const socket = join(fx.home, ".run", "desktop.sock");
        mkdirSync(join(fx.home, ".run"));
        const heard: string[] = [];
        listeners.push(Bun.listen({ unix: socket, socket: { data: (_s, data) => void heard.push(data.toString()) } }));
        const send = `/usr/bin/python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(sys.stdin.buffer.read())' ${socket}`;
        writeFileSync(join(fx.layout.shiroHome, "config.json"), JSON.stringify({ notify: [sandbox ? send : { command: send, sandbox: false }] }));
        const job = await hookJob(fx, box, []);
        return { job, heard };
      };
      const [outside, boxed] = await Promise.all([run(false), run(true)]);
      await waitUntil(() => outside.heard.join("").includes('"hook_event_name":"Stop"'), "the Stop notification on the desktop's socket");
      expect(outside.job.stderr).not.toContain("the Stop hook");
      expect(boxed.heard).toEqual([]);
      expect(boxed.job.stderr).toMatch(/the Stop hook `\/usr\/bin\/python3 .*` exited 1: .*(FileNotFoundError|PermissionError|ConnectionRefusedError)/);
    }, 60_000);
  }
});

describe("where no sandbox is in force (--sandbox off)", () => {
  test("a project's hooks do not run (one line says why); the person's run as before, outside", async () => {
    const fx = hookHome();
    fx.put(".shiro/settings.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [hook("echo project hook ran")] }] } }));
    writeFileSync(join(fx.layout.shiroHome, "config.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [hook(`echo person hook ran; touch ${fx.home}/person-mark`)] }] } }));
    const job = await hookJob(fx, { name: "none" } satisfies Box, [], ["--sandbox", "off", "--hooks", ".shiro/settings.json"]);
    expect(job.code).toBe(0);
    expect(job.stderr).toContain("project hooks (--hooks .shiro/settings.json) not run: a project's hooks run only in the sandbox, and commands run without one here");
    expect(job.requests[0]!.raw).toContain("person hook ran");
    expect(job.requests[0]!.raw).not.toContain("project hook ran");
    expect(existsSync(join(fx.home, "person-mark"))).toBe(true);
  }, 60_000);
});
