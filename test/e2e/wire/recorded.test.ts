/**
 * The bytes on the wire for one recorded multi-turn session — three turns (the second and third
 * through `-c`), reading, running a command, writing, with a todo list — must stay what they were
 * (test/fixtures/wire/recorded-session.json): a change to how shiro is built inside (issue 33: one
 * runtime per agent) must not change what it sends. What differs between runs (the session id, the
 * temp folders) is written as a placeholder. `SHIRO_RECORD_WIRE=1 bun test …` records the file anew,
 * for a change meant to alter the wire (say why in its commit).
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../../support/binary.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";

const FIXTURE = join(REPO, "test/fixtures/wire/recorded-session.json");
const TURNS: [string, ReturnType<typeof sequenceModel>][] = [
  ["look at the project", sequenceModel([{ name: "read_file", arguments: { path: "README.md" } }, { name: "list_dir", arguments: {} }], "It is a small project.")],
  ["run its check and note the steps", sequenceModel([{ name: "todo_write", arguments: { todos: [{ content: "run the check", status: "in_progress" }] } }, { name: "bash", arguments: { command: "cat check.txt" } }], "The check passes.")],
  ["write a summary", sequenceModel([{ name: "write_file", arguments: { path: "SUMMARY.md", content: "# Summary\n\nAll good.\n" } }], "Written.")],
];

/** The request bodies with what changes from run to run named instead. */
function normalised(bodies: string[], places: Record<string, string>): unknown[] {
  return bodies.map((raw) => {
    let text = raw;
    for (const [path, name] of Object.entries(places)) text = text.split(path).join(name);
    // The strict server's own ids and encrypted reasoning are new each run; the order and places they fill are what is checked.
    text = text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/\b(rs|msg|fc|resp|call)_[A-Za-z0-9_-]+/g, "$1_<id>")
      .replace(/"encrypted_content":"[^"]*"/g, '"encrypted_content":"<encrypted>"');
    return JSON.parse(text);
  });
}

test("a recorded three-turn session sends the same request bodies it always did", async () => {
  const base = tempDir("wire-recorded");
  const [cwd, home] = [join(base, "proj"), join(base, "home")];
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home);
  writeFileSync(join(cwd, "README.md"), "# proj\n\nA small project.\n");
  writeFileSync(join(cwd, "check.txt"), "ok\n");
  const bodies: string[] = [];
  for (const [i, [prompt, model]] of TURNS.entries()) {
    const server = await startStrictServer({ defaultModel: model });
    try {
      const r = await runShiro(["-p", "--yolo", ...(i > 0 ? ["-c"] : []), prompt], { cwd, home, env: { OPENAI_BASE_URL: server.url } });
      expect(r.code).toBe(0);
      bodies.push(...server.requests.map((req) => req.raw));
    } finally {
      await server.stop();
    }
  }
  const seen = normalised(bodies, { [cwd]: "<project>", [home]: "<home>", [base]: "<base>" });
  if (process.env.SHIRO_RECORD_WIRE === "1" || !existsSync(FIXTURE)) writeFileSync(FIXTURE, `${JSON.stringify(seen, null, 1)}\n`);
  expect(seen).toEqual(JSON.parse(readFileSync(FIXTURE, "utf8")));
});
