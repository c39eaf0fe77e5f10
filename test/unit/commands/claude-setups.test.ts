/**
 * Issue 32, the pieces that let a Claude Code setup work as it is: `allowed-tools` read into the tools
 * a turn offers and the commands it approves (and the gate honouring those for the call alone), what a
 * hook's `tool_input` carries for a script reading `file_path`, Claude Code's settings file read for its
 * hooks, `.claude/commands/` beside `.shiro/commands/`, and CLAUDE.md beside AGENTS.md.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { namingNothing, parseAllowedTools } from "../../../src/commands/allowed-tools.ts";
import { parseCommandFile } from "../../../src/commands/command-file.ts";
import { loadCommands } from "../../../src/commands/load-commands.ts";
import { loadAgentsMd } from "../../../src/context/agents-md.ts";
import { createAuthorize } from "../../../src/guard/authorize.ts";
import { SessionAllows } from "../../../src/guard/session-allows.ts";
import { readHookFile } from "../../../src/hooks/hook-file.ts";
import { hookToolInput } from "../../../src/hooks/tool-input.ts";
import { codingTools } from "../../../src/tools/coding-tools.ts";
import { tempProject } from "../../support/temp-project.ts";

const SHIRO_TOOLS = [...codingTools.map((t) => t.name), "todo_write", "remember", "mcp__github__search", "mcp__github__open", "mcp__db__query"];
const offered = (text: string) => SHIRO_TOOLS.filter((tool) => parseAllowedTools(text)!.offers(tool));

describe("allowed-tools", () => {
  test("Claude Code's names stand for the shiro tools doing that work; shiro's names, globs and a server alone work too", () => {
    expect(offered("Bash(git status:*), Read")).toEqual(["read_file", "bash"]);
    expect(offered("Edit, Write, Grep, Glob, LS, TodoWrite")).toEqual(["list_dir", "glob", "grep", "write_file", "edit_file", "apply_patch", "todo_write"]);
    expect(offered("bash, read_file, mcp__github")).toEqual(["read_file", "bash", "mcp__github__search", "mcp__github__open"]);
    expect(offered("mcp__github__search, mcp__db__*")).toEqual(["mcp__github__search", "mcp__db__query"]);
    // A flow list, and YAML items as the frontmatter reader joins them.
    expect(offered("[Read, Bash]")).toEqual(["read_file", "bash"]);
    const listed = parseCommandFile("---\nallowed-tools:\n  - Read\n  - Bash(git log --format=%h,%s:*)\nargument-hint: [file]\n---\nGo.\n");
    expect(listed).toEqual({ ok: true, command: { description: "", allowedTools: "Read, Bash(git log --format=%h,%s:*)", argumentHint: "[file]", body: "Go." } });
    expect(parseAllowedTools("Read, Bash(git log --format=%h,%s:*)")!.allows).toEqual([{ tool: "bash", pattern: "git log --format=%h,%s *" }]);
    expect(parseAllowedTools("  ")).toBeUndefined();
  });

  test("only a Bash(…) pattern approves: `:*` is the words after it, a bare name or another tool's pattern approves nothing", () => {
    expect(parseAllowedTools("Bash(git add:*), Bash(git status), Bash(npm run test *), Bash(what?)")!.allows.map((a) => a.pattern)).toEqual(["git add *", "git status", "npm run test *", "what\\?"]);
    expect(parseAllowedTools("Bash, Edit, Read(src/**), Write(*)")!.allows).toEqual([]);
  });

  test("a name that stands for no shiro tool is found (MCP names wait for their servers)", () => {
    const limit = parseAllowedTools("Read, WebFetch(domain:example.com), Task, mcp__later__x")!;
    expect(namingNothing(limit, SHIRO_TOOLS)).toEqual(["WebFetch", "Task"]);
  });

  test("the gate takes a call's approvals for that call alone: an ask lifted, never a deny rule, the guard, or another command", async () => {
    const root = realpathSync(tempProject().root);
    const bash = codingTools.find((t) => t.name === "bash")!;
    const gate = createAuthorize({ rules: [{ decision: "deny", tool: "bash", pattern: "git status --porcelain*", source: "--deny" }], yolo: false, sessionAllows: new SessionAllows() });
    const allows = parseAllowedTools("Bash(git status:*), Bash(rm:*)")!.allows;
    const call = (command: string, withAllows = true) => gate({ tool: bash, args: { command }, callId: "c", root, ...(withAllows ? { allows } : {}) });
    expect(await call("git status --short")).toMatchObject({ allowed: true, sandbox: "workspace-write" });
    expect(await call("git status --short", false)).toMatchObject({ allowed: false, reason: expect.stringContaining("this run cannot ask (print mode)") });
    expect(await call("git push")).toMatchObject({ allowed: false, reason: expect.stringContaining("git push needs approval") });
    expect(await call("git status --porcelain")).toMatchObject({ allowed: false, reason: expect.stringContaining("--deny") });
    expect(await call("rm -rf /")).toMatchObject({ allowed: false });
  });
});

describe("what a hook reads in tool_input", () => {
  const root = "/work/p";
  test("file_path beside path, absolute as Claude Code's, for each file tool; for apply_patch the first and every one in file_paths", () => {
    expect(hookToolInput("write_file", { path: "src/a.ts", content: "x" }, root)).toEqual({ path: "src/a.ts", content: "x", file_path: "/work/p/src/a.ts" });
    expect(hookToolInput("edit_file", { path: "/etc/hosts", old_string: "a", new_string: "b" }, root)).toMatchObject({ file_path: "/etc/hosts" });
    expect(hookToolInput("read_file", { path: "README.md" }, root)).toMatchObject({ path: "README.md", file_path: "/work/p/README.md" });
    const patch = "*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n@@\n-x\n+y\n*** Add File: c.ts\n+z\n*** End Patch";
    expect(hookToolInput("apply_patch", { patch }, root)).toEqual({ patch, file_path: "/work/p/a.ts", file_paths: ["/work/p/a.ts", "/work/p/b.ts", "/work/p/c.ts"] });
    // bash already says `command`, as Claude Code's Bash; other tools are left as they are.
    expect(hookToolInput("bash", { command: "ls" }, root)).toEqual({ command: "ls" });
    expect(hookToolInput("grep", { pattern: "x", path: "src" }, root)).toEqual({ pattern: "x", path: "src" });
  });
});

describe("Claude Code's settings file", () => {
  test("its hooks are read among its other keys; what shiro cannot run is named, not an error; shiro's own file stays strict", async () => {
    const claude = {
      permissions: { allow: ["Bash(npm test)"] },
      env: { X: "1" },
      hooks: {
        PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "fmt", timeout: 30 }] }],
        Stop: [{ hooks: [{ type: "prompt", prompt: "check" }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: "bye" }] }],
      },
    };
    const p = tempProject({ ".claude/settings.json": JSON.stringify(claude), ".shiro/settings.json": JSON.stringify({ hooks: {}, env: {} }) });
    try {
      const read = await readHookFile(join(p.root, ".claude/settings.json"));
      expect(read).toEqual({
        ok: true,
        value: {
          raw: claude.hooks,
          hooks: { PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "fmt", timeout: 30 }] }], Stop: [{ hooks: [] }] },
          notRun: ['1 Stop hook of type "prompt" (only "command" hooks run)', "SessionEnd hooks (shiro has no such moment)"],
        },
      });
      expect(await readHookFile(join(p.root, ".shiro/settings.json"))).toMatchObject({ ok: false, reason: "corrupt", message: expect.stringContaining('unknown key "env"') });
    } finally {
      p.cleanup();
    }
  });
});

describe("commands and instructions where Claude Code keeps them", () => {
  test(".claude/commands/ is the project's and ~/.claude/commands/ the person's; shiro's folder wins a name, the other file named once", async () => {
    const p = tempProject({
      ".shiro/commands/review.md": "shiro's review\n",
      ".claude/commands/review.md": "claude's review\n",
      ".claude/commands/git/commit.md": "---\nargument-hint: [message]\n---\ncommit\n",
      "me/.claude/commands/explain.md": "explain\n",
      "me/.claude/commands/git/commit.md": "mine\n",
    });
    try {
      const warned: string[] = [];
      const commands = await loadCommands({ home: join(p.root, "shiro-home"), root: p.root, userHome: join(p.root, "me"), warn: (l) => warned.push(l) });
      expect(commands.map((c) => [c.name, c.scope, c.body, c.argumentHint])).toEqual([
        ["explain", "user", "explain", undefined],
        ["git:commit", "project", "commit", "[message]"],
        ["review", "project", "shiro's review", undefined],
      ]);
      expect(warned).toEqual([`command ${join(p.root, ".claude/commands/review.md")} is not used: ${join(p.root, ".shiro/commands/review.md")} is /review too (shiro's folder wins)`]);
    } finally {
      p.cleanup();
    }
  });

  test("CLAUDE.md (or .claude/CLAUDE.md) counts where no AGENTS.md is beside it; ~/.claude/CLAUDE.md where $SHIRO_HOME/AGENTS.md is not", async () => {
    const p = tempProject({ "CLAUDE.md": "root claude\n", "pkg/AGENTS.md": "pkg agents\n", "pkg/CLAUDE.md": "pkg claude\n", "pkg/sub/.claude/CLAUDE.md": "sub claude\n", "me/.claude/CLAUDE.md": "my claude\n" });
    try {
      mkdirSync(join(p.root, ".git"));
      const [home, me, cwd] = [join(p.root, "shiro-home"), join(p.root, "me"), join(p.root, "pkg/sub")];
      const read = await loadAgentsMd(home, cwd, { userHome: me });
      expect(read.files).toEqual([join(me, ".claude/CLAUDE.md"), join(p.root, "CLAUDE.md"), join(p.root, "pkg/AGENTS.md"), join(cwd, ".claude/CLAUDE.md")]);
      expect(read.text).toBe("## ~/.claude/CLAUDE.md\n\nmy claude\n\n## ../../CLAUDE.md\n\nroot claude\n\n## ../AGENTS.md\n\npkg agents\n\n## .claude/CLAUDE.md\n\nsub claude");
      mkdirSync(home);
      await Bun.write(join(home, "AGENTS.md"), "my agents\n");
      expect((await loadAgentsMd(home, cwd, { userHome: me })).files[0]).toBe(join(home, "AGENTS.md"));
      expect((await loadAgentsMd(home, cwd, { userHome: me })).text).not.toContain("my claude");
    } finally {
      p.cleanup();
    }
  });
});
