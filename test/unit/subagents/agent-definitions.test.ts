import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../../src/exit/usage-error.ts";
import { createAgentCatalog } from "../../../src/subagents/agent-catalog.ts";
import { parseAgentFile, toolList } from "../../../src/subagents/agent-definition.ts";
import { childTools } from "../../../src/subagents/agent-tools.ts";
import { parseRunAgents } from "../../../src/subagents/run-agents.ts";
import { lazyApprovals } from "../../../src/store/approvals.ts";
import { tempDir } from "../../support/run-shiro.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("an agent's file (Claude Code's format)", () => {
  test("name, description, tools in either spelling, model, and the body as instructions; inherit means the parent's model", () => {
    expect(parseAgentFile("---\nname: Reviewer\ndescription: Reviews\ntools: Read, Grep\nmodel: inherit\n---\nReview it.\n", "x.md")).toEqual({ name: "reviewer", description: "Reviews", instructions: "Review it.", tools: ["Read", "Grep"] });
    expect(parseAgentFile("---\ndescription: Fixes tests\nmodel: gpt-5-mini\n---\nFix them.\n", "sub/fixer.md")).toEqual({ name: "fixer", description: "Fixes tests", instructions: "Fix them.", model: "gpt-5-mini" });
    expect(toolList('["read_file", "grep"]')).toEqual(["read_file", "grep"]);
    expect(toolList("  ")).toBeUndefined();
  });
  test("what is not an agent says why in a line: no description, no body, a bad name", () => {
    expect(parseAgentFile("---\nname: x\n---\nBody\n", "x.md")).toBe("its frontmatter has no description (the model chooses an agent by it)");
    expect(parseAgentFile("---\ndescription: d\n---\n", "x.md")).toBe("its body (the agent's instructions) is empty");
    expect(parseAgentFile("---\nname: a b\ndescription: d\n---\nBody\n", "x.md")).toBe('"a b" is not an agent name (letters, digits, "_" and "-")');
  });
});

describe("--agents for one run", () => {
  test("Claude Code's shape becomes run agents", () => {
    expect(parseRunAgents('{"rev":{"description":"d","prompt":"p","tools":["Read"],"model":"inherit"}}')).toEqual([{ name: "rev", description: "d", instructions: "p", tools: ["Read"], source: "run" }]);
  });
  test("bad input is a usage error naming what is wrong", () => {
    const message = (json: string) => {
      try {
        parseRunAgents(json);
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      }
      return "no error";
    };
    expect(message("{rev:")).toStartWith("--agents is not JSON (");
    expect(message('{"rev":{"prompt":"p"}}')).toStartWith("--agents: rev.description: ");
    expect(message('{"Bad Name":{"description":"d","prompt":"p"}}')).toBe('--agents: "Bad Name" is not an agent name (lower-case letters, digits, _ and -)');
    expect(message('{"rev":{"description":"d","prompt":"p","colour":"red"}}')).toStartWith("--agents: rev: ");
  });
});

describe("a child's tools", () => {
  const parent = ["read_file", "grep", "write_file", "bash", "task", "mcp__gh__issue"];
  test("those named (shiro's names, Claude Code's, patterns), never one the parent lacks; task only while the tree may grow", () => {
    expect([...childTools(parent, undefined, false)]).toEqual(["read_file", "grep", "write_file", "bash", "mcp__gh__issue"]);
    expect([...childTools(parent, ["Read", "Grep", "WebFetch"], true)]).toEqual(["read_file", "grep"]);
    expect([...childTools(parent, ["mcp__gh__*", "task"], true)]).toEqual(["task", "mcp__gh__issue"]);
    expect([...childTools(["read_file"], ["Bash"], true)]).toEqual([]);
  });
});

describe("the catalog", () => {
  test("an unknown name is refused naming those that exist; a file that is no agent is skipped with one warning; --agents wins a name", async () => {
    const base = tempDir("agents-catalog");
    dirs.push(base);
    const [home, root] = [join(base, "home"), join(base, "project")];
    mkdirSync(join(home, "agents"), { recursive: true });
    mkdirSync(root);
    writeFileSync(join(home, "agents", "fixer.md"), "---\ndescription: Fixes tests\n---\nFix them.\n");
    writeFileSync(join(home, "agents", "broken.md"), "---\nname: broken\n---\nno description\n");
    const warnings: string[] = [];
    const catalog = createAgentCatalog({
      home,
      root,
      userHome: join(base, "nobody"),
      runAgents: parseRunAgents('{"fixer":{"description":"Fixes, for this run","prompt":"Run fix."}}'),
      approvals: lazyApprovals({ home, save: true, warn: (line) => warnings.push(line) }),
      warn: (line) => warnings.push(line),
    });
    expect((await catalog.list()).map((a) => `${a.name}: ${a.description}`)).toEqual(["general: any job", "fixer: Fixes, for this run"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("broken.md");
    expect(await catalog.take("reviewer")).toEqual({ refused: 'unknown agent "reviewer"; the agents here: general, fixer' });
    expect(await catalog.take("Fixer")).toMatchObject({ name: "fixer", instructions: "Run fix.", source: "run" });
  });
});
