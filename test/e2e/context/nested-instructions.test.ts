/**
 * Instructions of a monorepo's subfolders, through the binary against the strict server: a folder's
 * AGENTS.md (or CLAUDE.md) joins the instructions once a tool first touches it, once, kept through a
 * compaction and a resume, off with --no-project-instructions, never where the read rules refuse it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { firstUserText, sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type RecordedRequest, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const SUMMARY_PREAMBLE = "Summary of the conversation so far";
const SUMMARY = "## Goal\nWork in packages/api.\n\n## Files touched\nnone\n\n## Decisions\nnone\n\n## Commands and outcomes\n- read_file → ok\n\n## What remains\nanswer";
const RULES = { personal: "PERSONAL-RULE-4471", root: "ROOT-RULE-8812", api: "API-RULE-3090", web: "WEB-RULE-5523", lib: "LIB-CLAUDE-RULE-1178", vault: "VAULT-RULE-6604" };
const read = (path: string) => ({ name: "read_file", arguments: { path } });

/** Reads twice in packages/api, then two large files until the history no longer fits 8,000 tokens; summarises when asked without tools. */
const mono = sequenceModel([read("packages/api/src/a.ts"), read("packages/api/src/b.ts"), read("big0.txt"), read("big1.txt")], "read them all");
const monoModel: ScriptedModel = (req) => {
  if (req.tools.length === 0) return { text: SUMMARY };
  if (firstUserText(req.input).startsWith(SUMMARY_PREAMBLE)) return { text: "continued from the summary" };
  return mono(req);
};
/** Touches packages/lib (a CLAUDE.md only), packages/vault (its AGENTS.md refused by a rule) and a cut one. */
const others = sequenceModel([read("packages/lib/index.ts"), read("packages/vault/src/v.ts"), { name: "list_dir", arguments: { path: "packages/huge" } }], "looked");

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { mono: monoModel, others } });
});
afterAll(() => server.stop());

function monorepo(files: Record<string, string>): { home: string; cwd: string } {
  const home = tempDir("nested-home");
  const cwd = tempDir("nested-repo");
  mkdirSync(join(cwd, ".git"));
  writeFileSync(join(home, "AGENTS.md"), `${RULES.personal}\n`);
  const all: Record<string, string> = {
    "AGENTS.md": `${RULES.root}\n`,
    "packages/api/AGENTS.md": `${RULES.api}: use zod at the edges\n`,
    "packages/web/AGENTS.md": `${RULES.web}\n`,
    "packages/api/src/a.ts": "export const a = 1;\n",
    "packages/api/src/b.ts": "export const b = 2;\n",
    "packages/web/src/w.ts": "export const w = 3;\n",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(cwd, path)), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  return { home, cwd };
}

const count = (text: string, what: string) => text.split(what).length - 1;
const instructionsOf = (q: RecordedRequest): string => q.body.instructions;
const logLines = (home: string): any[] => {
  const dir = join(home, "sessions");
  const [log] = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  return readFileSync(join(dir, log!), "utf8").trim().split("\n").map((l) => JSON.parse(l));
};

describe("a monorepo's subfolder instructions", () => {
  let home: string;
  let cwd: string;
  beforeAll(() => {
    const big = (i: number) => `${i}: ${"lorem ipsum dolor sit amet ".repeat(440)}\n`;
    ({ home, cwd } = monorepo({ "big0.txt": big(0), "big1.txt": big(1) }));
    writeFileSync(join(home, "config.json"), JSON.stringify({ contextWindow: 8_000 }));
  });
  afterAll(() => {
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
  });

  test("a read in packages/api puts its AGENTS.md in the next request once, not web's; a second read adds nothing; a compaction keeps it", async () => {
    const before = server.requests.length;
    const r = await runShiro(["-p", "--yolo", "-m", "mono", "Work in packages/api."], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
    expect([r.code, r.stdout]).toEqual([0, "continued from the summary\n"]);
    expect(r.stderr).toMatch(/continuing from a [\d,]+-char summary/);
    const calls = server.requests.slice(before).filter((q) => q.body.tools.length > 0);
    expect(calls).toHaveLength(5);
    const [first, ...after] = calls.map(instructionsOf);
    expect(first).toContain(RULES.root);
    expect(first).toContain(RULES.personal);
    expect(first).not.toContain(RULES.api);
    for (const text of after) {
      expect(count(text, RULES.api)).toBe(1);
      expect(text).not.toContain(RULES.web);
      expect(text).toContain("## packages/api/AGENTS.md");
    }
    // The last request continues from the summary: the history is gone, the instructions are not.
    expect(firstUserText(calls.at(-1)!.body.input)).toStartWith(SUMMARY_PREAMBLE);
    const events = logLines(home).filter((e) => e.type === "instructions");
    expect(events).toEqual([{ type: "instructions", path: "packages/api/AGENTS.md", text: `${RULES.api}: use zod at the edges`, bytes: 36, at: expect.any(String) }]);
  });

  test("a resumed session sends it from its first request", async () => {
    const before = server.requests.length;
    const r = await runShiro(["-c", "-p", "-m", "echo-model", "again"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const [resumed] = server.requests.slice(before);
    expect(count(instructionsOf(resumed!), RULES.api)).toBe(1);
    expect(instructionsOf(resumed!)).toContain(RULES.root);
  });

  test("--no-project-instructions sends none of the project's, root or subfolder; the person's own still goes", async () => {
    const before = server.requests.length;
    const r = await runShiro(["-c", "-p", "--no-project-instructions", "-m", "echo-model", "once more"], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const [sent] = server.requests.slice(before);
    expect(instructionsOf(sent!)).toContain(RULES.personal);
    for (const rule of [RULES.root, RULES.api, RULES.web]) expect(instructionsOf(sent!)).not.toContain(rule);
  });

  test("inspect shows the file joining, in the call it first went with", async () => {
    const id = logLines(home)[0].id as string;
    const overview = await runShiro(["inspect", id], { cwd, home });
    expect(overview.code).toBe(0);
    expect(overview.stdout).toMatch(/instructions\s+packages\/api\/AGENTS\.md \(36 B\)/);
    const turns = await runShiro(["inspect", id, "--turns"], { cwd, home });
    expect(turns.stdout).toMatch(/call 2 .*new: 1 result \(read_file [^)]*\) · instructions \+packages\/api\/AGENTS\.md/);
    const json = JSON.parse((await runShiro(["inspect", id, "--json"], { cwd, home })).stdout);
    expect(json.instructionFiles).toEqual([{ path: "packages/api/AGENTS.md", bytes: 36 }]);
  });
});

test("a CLAUDE.md-only folder loads; a file the read rules refuse does not; an oversized one is cut with a notice", async () => {
  const { home, cwd } = monorepo({
    "packages/lib/CLAUDE.md": `${RULES.lib}\n`,
    "packages/lib/index.ts": "export {};\n",
    "packages/vault/AGENTS.md": `${RULES.vault}\n`,
    "packages/vault/src/v.ts": "export {};\n",
    "packages/huge/AGENTS.md": `HUGE-START\n${"x".repeat(40 * 1024)}\nHUGE-END\n`,
  });
  try {
    const before = server.requests.length;
    const r = await runShiro(["-p", "--deny", "read_file:packages/vault/AGENTS.md", "-m", "others", "Look around."], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("! packages/huge/AGENTS.md cut: 16 KiB of its 40 KiB kept");
    const last = instructionsOf(server.requests.slice(before).at(-1)!);
    expect(last).toContain(`## packages/lib/CLAUDE.md\n\n${RULES.lib}`);
    expect(last).not.toContain(RULES.vault);
    expect(last).toContain("HUGE-START");
    expect(last).not.toContain("HUGE-END");
    expect(last).toContain("[packages/huge/AGENTS.md cut: 16 KiB of its 40 KiB kept");
    // The read in the refused folder did run: the rule kept its AGENTS.md out, nothing else.
    const reads = server.requests.slice(before).at(-1)!.body.input.filter((i: any) => i.type === "function_call_output");
    expect(reads).toHaveLength(3);
    expect(reads.every((o: any) => !String(o.output).startsWith("Denied"))).toBe(true);
    expect(logLines(home).filter((e) => e.type === "instructions").map((e) => e.path)).toEqual(["packages/lib/CLAUDE.md", "packages/huge/AGENTS.md"]);
  } finally {
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
  }
});
