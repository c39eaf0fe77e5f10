import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { echoModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "echo-model": echoModel } });
});
afterAll(() => server.stop());

test("an AGENTS.md that cannot be read is skipped with a warning naming it; the others still count", async () => {
  const root = tempDir("agents");
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, "AGENTS.md"), "Always answer in haiku.\n");
  const cwd = join(root, "pkg");
  mkdirSync(join(cwd, "AGENTS.md"), { recursive: true }); // a folder where a file is expected
  const before = server.requests.length;
  const r = await runShiro(["-p", "-m", "echo-model", "hello"], { cwd, env: { OPENAI_BASE_URL: server.url } });
  expect(r.stderr).not.toContain("internal error");
  expect(r.stderr).toContain(`! AGENTS.md skipped: cannot read ${join(cwd, "AGENTS.md")} (`);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("You said: hello\n");
  const [request] = server.requests.slice(before);
  expect(request!.body.instructions).toContain("Always answer in haiku.");
});

test("a CLAUDE.md is read where no AGENTS.md is beside it, and not where one is; ~/.claude/CLAUDE.md is the person's until $SHIRO_HOME/AGENTS.md is there", async () => {
  const root = tempDir("claude-md");
  const home = tempDir("claude-md-home");
  mkdirSync(join(root, ".git"));
  writeFileSync(join(root, "CLAUDE.md"), "Claude canary at the root.\n");
  const cwd = join(root, "pkg");
  mkdirSync(cwd);
  writeFileSync(join(cwd, "AGENTS.md"), "Agents canary in pkg.\n");
  writeFileSync(join(cwd, "CLAUDE.md"), "Claude canary in pkg.\n");
  mkdirSync(join(home, ".claude"));
  writeFileSync(join(home, ".claude", "CLAUDE.md"), "Claude canary of the person.\n");
  const instructions = async () => {
    const before = server.requests.length;
    const r = await runShiro(["-p", "-m", "echo-model", "hello"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    return server.requests.slice(before)[0]!.body.instructions as string;
  };
  const first = await instructions();
  expect(first).toContain("## ~/.claude/CLAUDE.md\n\nClaude canary of the person.");
  expect(first).toContain("## ../CLAUDE.md\n\nClaude canary at the root.");
  expect(first).toContain("## AGENTS.md\n\nAgents canary in pkg.");
  expect(first).not.toContain("Claude canary in pkg.");
  // The person's own AGENTS.md is the file meant for shiro: their Claude Code one then stays Claude Code's.
  writeFileSync(join(home, "AGENTS.md"), "Agents canary of the person.\n");
  const second = await instructions();
  expect(second).toContain("## ~shiro/AGENTS.md\n\nAgents canary of the person.");
  expect(second).not.toContain("Claude canary of the person.");
  for (const dir of [root, home]) rmSync(dir, { recursive: true, force: true });
});
