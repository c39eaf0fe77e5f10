import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/binary.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";

// `--version`/`--help` on their own skip the flag parser (start-up); every other spelling goes
// through it, so both paths must give the same answers.
const version = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version as string;

test("-v, --version, and --version among other flags print the same line; -h and --help the same text", async () => {
  const cwd = tempDir("vh");
  const run = (...args: string[]) => runShiro(args, { cwd, env: { OPENAI_API_KEY: undefined } });
  for (const args of [["--version"], ["-v"], ["--version", "-p"], ["-p", "-v"]]) {
    expect(await run(...args)).toEqual({ code: 0, stdout: `shiro ${version}\n`, stderr: "" });
  }
  const help = await run("--help");
  expect(help.code).toBe(0);
  expect(help.stdout).toStartWith("shiro — a coding agent for the terminal\n");
  for (const args of [["-h"], ["--help", "--json"]]) expect(await run(...args)).toEqual(help);
});

test("a bad flag beside --version is still a usage error, and a prompt that says --version is not a flag", async () => {
  const cwd = tempDir("vh");
  const bad = await runShiro(["--version", "--bogus"], { cwd, env: { OPENAI_API_KEY: undefined } });
  expect(bad.code).toBe(2);
  expect(bad.stdout).toBe("");
  expect(bad.stderr).toMatch(/^shiro: .*--bogus.*\(see shiro --help\)\n$/);
  // After `--`, "--version" is the prompt: without a key that ends in the missing-key error, not a version line.
  const prompt = await runShiro(["-p", "--", "--version"], { cwd, env: { OPENAI_API_KEY: undefined } });
  expect(prompt.code).toBe(2);
  expect(prompt.stdout).toBe("");
  expect(prompt.stderr).toContain("OPENAI_API_KEY is not set");
});
