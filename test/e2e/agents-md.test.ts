import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../support/run-shiro.ts";
import { echoModel } from "../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../support/strict-server.ts";

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
