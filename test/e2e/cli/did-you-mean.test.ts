/**
 * A typo gets the name meant, in one line, and nothing is sent: an unknown config key, flag, subcommand
 * flag, registry verb or rule tool, and a lone word close to a subcommand (which would otherwise go to
 * the model as a prompt). Through the binary, with a strict server that must see no request.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { spawnPty } from "../../support/pty.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.stop());

async function refused(args: string[], config?: object, env: Record<string, string> = {}) {
  const home = tempDir("dym-home");
  if (config) writeFileSync(join(home, "config.json"), JSON.stringify(config));
  const before = server.requests.length;
  const r = await runShiro(args, { cwd: tempDir("dym"), home, env: { OPENAI_BASE_URL: server.url, ...env } });
  expect({ code: r.code, stdout: r.stdout, sent: server.requests.length - before }).toEqual({ code: 2, stdout: "", sent: 0 });
  return r.stderr.replaceAll(home, "$HOME");
}

describe("did you mean", () => {
  test("config.json keys, at the top and nested, and a key with nothing near lists the keys", async () => {
    expect(await refused(["-p", "hi"], { modle: "gpt-5" })).toBe('shiro: $HOME/config.json does not match its schema: unknown key "modle"; did you mean "model"? — fix or remove it\n');
    expect(await refused(["-p", "hi"], { env: { pas: ["NPM_TOKEN"] } })).toBe('shiro: $HOME/config.json does not match its schema at env: unknown key "pas"; did you mean "pass"? — fix or remove it\n');
    expect(await refused(["-p", "hi"], { pricing: { m: { input: 1, outptu: 2 } } })).toContain('at pricing.m: unknown key "outptu"; did you mean "output"?');
    expect(await refused(["-p", "hi"], { reasoningEfort: "low" })).toContain('unknown key "reasoningEfort"; did you mean "reasoningEffort"?');
    expect(await refused(["-p", "hi"], { zzzzzzzz: 1 })).toContain('unknown key "zzzzzzzz" (known keys: model, baseUrl, maxSteps');
    // Issue 30's keys: secrets.env and sandbox.denyEnv, closed as the others.
    expect(await refused(["-p", "hi"], { secrets: { evn: ["DEPLOY_HOOK"] } })).toBe('shiro: $HOME/config.json does not match its schema at secrets: unknown key "evn"; did you mean "env"? — fix or remove it\n');
    expect(await refused(["-p", "hi"], { sandbox: { denyEvn: ["CC"] } })).toContain('at sandbox: unknown key "denyEvn"; did you mean "denyEnv"?');
    expect(await refused(["-p", "hi"], { secrest: { env: [] } })).toContain('unknown key "secrest"; did you mean "secrets"?');
    expect(await refused(["-p", "hi"], { sandbox: { denyEnv: ["NOT A NAME"] } })).toContain("must be an environment variable name");
  });

  test("flags, and a subcommand's flags", async () => {
    expect(await refused(["-p", "--jsno", "hi"])).toBe("shiro: Unknown option '--jsno'; did you mean '--json'? (see shiro --help)\n");
    expect(await refused(["-p", "--output-shema", "s.json", "hi"])).toBe("shiro: Unknown option '--output-shema'; did you mean '--output-schema'? (see shiro --help)\n");
    expect(await refused(["-p", "--max-cots", "1", "hi"])).toContain("did you mean '--max-cost'?");
    expect(await refused(["sessions", "--jsno"])).toBe("shiro: Unknown option '--jsno'; did you mean '--json'? (usage: shiro sessions [--all] [--json])\n");
    expect(await refused(["-p", "--zzzzzzzzzz", "hi"])).toBe("shiro: Unknown option '--zzzzzzzzzz' (see shiro --help)\n");
  });

  test("a lone word close to a subcommand is refused, not sent; -p first sends it; a word near nothing is a prompt", async () => {
    expect(await refused(["sesions"])).toBe('shiro: "sesions" is not a command; did you mean "shiro sessions"? (to send it as a prompt: shiro -p "sesions")\n');
    expect(await refused(["doctr"])).toContain('did you mean "shiro doctor"?');
    expect(await refused(["inspekt", "-p"])).toContain('did you mean "shiro inspect"?');
    const before = server.requests.length;
    const sent = await runShiro(["-p", "sesions"], { cwd: tempDir("dym"), env: { OPENAI_BASE_URL: server.url } });
    const prompt = await runShiro(["refactor"], { cwd: tempDir("dym"), env: { OPENAI_BASE_URL: server.url } });
    expect([sent.code, sent.stdout, prompt.code, prompt.stdout]).toEqual([0, "You said: sesions\n", 0, "You said: refactor\n"]);
    expect(server.requests.length - before).toBe(2);
  });

  test("a registry verb, and a rule's tool in a flag, the environment or config.json", async () => {
    const registry = await runShiro(["registry", "serch", "x"], { cwd: tempDir("dym") });
    expect([registry.code, registry.stderr]).toEqual([2, expect.stringMatching(/^unknown registry command "serch"; did you mean "search"\? \(usage: shiro registry /)]);
    expect(await refused(["-p", "--allow", "bsh:ls", "hi"])).toBe('shiro: --allow "bsh:ls": unknown tool "bsh"; did you mean "bash"?\n');
    expect(await refused(["-p", "--deny", "**/*.lock", "hi"])).toBe(
      'shiro: --deny "**/*.lock": unknown tool "**/*.lock" (rules name read_file, list_dir, glob, grep, write_file, edit_file, apply_patch, bash, bash_output, bash_kill, *); a rule is tool or tool:pattern (bash:npm test*, *:**/*.lock)\n',
    );
    expect(await refused(["-p", "hi"], undefined, { SHIRO_PERMISSIONS: JSON.stringify([{ decision: "deny", tool: "edit_flie", pattern: "*" }]) })).toBe(
      'shiro: SHIRO_PERMISSIONS[0].tool: unknown tool "edit_flie"; did you mean "edit_file"?\n',
    );
    expect(await refused(["-p", "hi"], { permissions: [{ decision: "deny", tool: "wrte_file", pattern: "*.lock" }] })).toBe(
      'shiro: permissions[0].tool in $HOME/config.json: unknown tool "wrte_file"; did you mean "write_file"?\n',
    );
  });
});

describe("--reasoning-effort", () => {
  const effortOf = async (args: string[], config?: object) => {
    const home = tempDir("effort-home");
    if (config) writeFileSync(join(home, "config.json"), JSON.stringify(config));
    const before = server.requests.length;
    const r = await runShiro(["-p", ...args, "hi"], { cwd: tempDir("effort"), home, env: { OPENAI_BASE_URL: server.url } });
    expect(r.code).toBe(0);
    return server.requests.slice(before).map((q) => q.body.reasoning?.effort);
  };

  test("the flag is sent, over config.json's reasoningEffort, which is sent without it; xhigh where the model takes it", async () => {
    expect(await effortOf(["--reasoning-effort", "low"], { reasoningEffort: "high" })).toEqual(["low"]);
    expect(await effortOf([], { reasoningEffort: "high" })).toEqual(["high"]);
    expect(await effortOf(["-m", "gpt-5.2", "--reasoning-effort", "xhigh"])).toEqual(["xhigh"]);
    expect(await effortOf(["-m", "some-local-model", "--reasoning-effort", "xhigh"])).toEqual([undefined]); // not a reasoning model: not sent
  });

  test("an effort the model is known not to take is refused before any call, from the flag or the file", async () => {
    expect(await refused(["-p", "--reasoning-effort", "xhigh", "hi"])).toBe("shiro: --reasoning-effort xhigh: gpt-5 accepts minimal, low, medium, high; pick one of those\n");
    expect(await refused(["-p", "-m", "gpt-5.1", "hi"], { reasoningEffort: "minimal" })).toBe(
      'shiro: reasoningEffort "minimal" in $HOME/config.json: gpt-5.1 accepts low, medium, high; pick one of those\n',
    );
    expect(await refused(["-p", "-m", "gpt-4.1-2025-04-14", "--reasoning-effort", "low", "hi"])).toContain("gpt-4.1-2025-04-14 does not reason");
    expect(await refused(["-p", "--reasoning-effort", "max", "hi"])).toBe('shiro: --reasoning-effort must be one of minimal, low, medium, high, xhigh, got "max"\n');
  });
});

test("print-mode flags in the interactive session are usage errors that say to add -p", async () => {
  for (const [args, said] of [
    [["--max-cost", "1"], "--max-cost limits a print-mode run: add -p"],
    [["--ephemeral"], "--ephemeral is for print-mode runs: add -p"],
  ] as const) {
    const home = tempDir("pty-home");
    await using pty = spawnPty([BINARY, ...args], { cwd: tempDir("pty"), env: { PATH: process.env.PATH, HOME: home, SHIRO_HOME: home, OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url } });
    expect(await pty.exited).toBe(2);
    expect(pty.screen()).toContain(said);
  }
});
