/**
 * Issue 32, Claude Code's saved commands where it keeps them (`.claude/commands/`), through the binary
 * against the strict server: asked about as `.shiro/commands/` are (print mode refuses one not approved;
 * approved, it runs), its `allowed-tools` making the turn's tools only those named and letting its
 * `Bash(git status:*)` run unasked while any other command is refused, for that turn alone; its
 * `argument-hint` in the REPL's `/` menu.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, makeProject, writeFiles } from "../../support/command-project.ts";
import { withPrintRun } from "../../support/print-run.ts";
import { keys } from "../../support/pty.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { inspectedBodies } from "../../support/inspected-bodies.ts";
import { FINAL } from "../../support/scripted-job.ts";
import { sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type RecordedRequest } from "../../support/strict-server.ts";
import { definitionHash, openApprovals } from "../../../src/store/approvals.ts";

const STATUS = `---
description: Explain the working tree
allowed-tools: Bash(git status:*), Read
model: sonnet
---
Explain what changed in the working tree:
!\`git status --short\`
`;
const toolsOf = (request: RecordedRequest) => (request.body.tools ?? []).map((t: any) => t.name).sort();
const outputOf = (request: RecordedRequest, command: string) => visibleOutputs(request.body.input).find((o) => (o.arguments as any).command === command)?.output;

/** What the person approved in an interactive shiro before: the file's exact text, by its hash, for this project. */
async function approve(home: string, root: string, name: string, text: string) {
  const approvals = await openApprovals({ home, save: true, warn: () => {} });
  await approvals.add("command", realpathSync(root), name, definitionHash(text));
}

describe("a project's .claude/commands/", () => {
  test("refused in print mode until approved; approved, its allowed-tools are the only tools offered, git status runs unasked and another command is refused", async () => {
    const job = sequenceModel([{ name: "bash", arguments: { command: "git status --short" } }, { name: "bash", arguments: { command: "touch made.txt" } }], FINAL);
    await withPrintRun(
      async ({ server, cwd, run }) => {
        const home = join(cwd, "..", "home");
        makeProject(cwd);
        writeFiles(cwd, { ".claude/commands/tree.md": STATUS, "notes.txt": "new\n" });
        // --sandbox off: a command nobody approved is refused outright, not run read-only.
        const args = ["-p", "-m", "gpt-5", "--sandbox", "off"];

        const refused = await run([...args, "/tree"], {});
        expect([refused.code, refused.stderr]).toEqual([
          4,
          "! /tree is a project command (.claude/commands/tree.md) not approved yet: run it once in the REPL (shiro, then /tree) to read and approve it; nothing was sent\n",
        ]);
        expect(server.requests).toHaveLength(0);

        await approve(home, cwd, "tree", STATUS);
        const ran = await run([...args, "/tree"], {});
        expect(ran.code).toBe(4); // a call was denied: the touch
        expect(ran.stderr).toContain("! model: sonnet is Claude Code's; this turn stays on the session's model\n");
        expect(server.requests).toHaveLength(3);
        for (const request of server.requests) expect([request.body.model, toolsOf(request)]).toEqual(["gpt-5", ["bash", "read_file"]]);
        // Its !`git status --short` ran approved too, before the turn.
        expect(lastUserText(server.requests[0]!.body)).toBe("Explain what changed in the working tree:\n?? .claude/\n?? notes.txt");
        const last = server.requests.at(-1)!;
        expect(outputOf(last, "git status --short")).toContain("?? notes.txt");
        expect(outputOf(last, "touch made.txt")).toStartWith("Denied: bash: touch made.txt needs approval, and this run cannot ask (print mode).");
        expect(existsSync(join(cwd, "made.txt"))).toBe(false);

        // The controls: the same calls from a typed prompt get every tool, and git status is asked (refused) as ever;
        // so is a command's !`git status` where no allowed-tools approve it (the person's own, from ~/.claude/commands/).
        const plain = await run([...args, "explain the working tree"], {});
        expect(plain.code).toBe(4);
        const typed = server.requests.slice(3);
        expect(toolsOf(typed[0]!)).toEqual(expect.arrayContaining(["bash", "read_file", "write_file", "edit_file", "grep"]));
        expect(outputOf(typed.at(-1)!, "git status --short")).toStartWith("Denied: bash: git status --short needs approval");
        writeFiles(home, { ".claude/commands/bare.md": "What changed?\n!`git status --short`\n" });
        const bare = await run([...args, "/bare"], {});
        expect([bare.code, bare.stderr]).toEqual([4, expect.stringContaining("! /bare not run: !`git status --short` was refused (Denied: bash: git status --short needs approval")]);
      },
      { defaultModel: job },
    );
  });
});

describe("a .claude command in the REPL", () => {
  test("its argument-hint shows in the / menu; approved there, its turn offers only its tools, and the next prompt every tool again", async () => {
    const base = tempDir("claude-commands-repl");
    const [cwd, home] = [join(base, "project"), join(base, "home")];
    makeProject(cwd);
    const review = "---\ndescription: Review a file\nargument-hint: [file] [focus]\nallowed-tools: Read, Grep\n---\nReview @$1 for $2.\n";
    writeFiles(cwd, { ".claude/commands/review.md": review });
    const server = await startStrictServer();
    try {
      await using repl = await startRepl({ cwd, home, baseUrl: server.url });

      await repl.type("/rev", 1);
      await repl.waitFor(/\/review \[file\] \[focus\] +project +Review a file/);
      repl.write(keys.ctrlC);

      let mark = repl.mark();
      await repl.send("/review src/login.ts naming");
      await repl.waitFor("Run /review as written? [y/N]", { since: mark });
      expect(repl.screen()).toContain("project command /review (.claude/commands/review.md), not run here before or changed since:");
      expect(server.requests).toHaveLength(0);
      await repl.send("y");
      await repl.waitFor("· this turn offers only Read, Grep", { since: mark });
      await repl.idle(mark);
      expect(server.requests).toHaveLength(1);
      expect(toolsOf(server.requests[0]!)).toEqual(["grep", "read_file"]);
      expect(lastUserText(server.requests[0]!.body)).toStartWith("Review @src/login.ts for naming.");
      expect(readFileSync(join(home, "approvals.json"), "utf8")).toContain(definitionHash(review));

      mark = repl.mark();
      await repl.send("hello");
      await repl.idle(mark);
      expect(toolsOf(server.requests[1]!)).toEqual(expect.arrayContaining(["bash", "read_file", "write_file", "edit_file", "grep"]));
      expect(await repl.quit()).toBe(0);
      // What the log says was sent is what was sent, the command's narrower turn included.
      const id = JSON.parse((await runShiro(["sessions", "--json"], { cwd, home })).stdout)[0].id;
      expect(await inspectedBodies(id, { cwd, home })).toEqual(server.requests.map((r) => r.raw));
    } finally {
      await server.stop();
      rmSync(base, { recursive: true, force: true });
    }
  });
});
