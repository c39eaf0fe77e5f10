import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir, type ShiroOptions, type ShiroRun } from "./run-shiro.ts";
import { startStrictServer, type StrictServer, type StrictServerOptions } from "./strict-server.ts";

export type PrintRunContext = { server: StrictServer; cwd: string; run: (args: string[], opts: Partial<ShiroOptions>) => Promise<ShiroRun> };

/**
 * A strict server of its own (so its request count is exact) and a project with its own SHIRO_HOME
 * (and `config.json`), all removed when `body` is done: for print-mode tests that run side by side.
 */
export async function withPrintRun(body: (ctx: PrintRunContext) => Promise<void>, serverOpts: StrictServerOptions = {}, config?: object) {
  const root = tempDir("stdin");
  const [cwd, home] = [join(root, "project"), join(root, "home")];
  mkdirSync(cwd);
  mkdirSync(home);
  if (config) writeFileSync(join(home, "config.json"), JSON.stringify(config));
  const server = await startStrictServer(serverOpts);
  try {
    await body({ server, cwd, run: (args, opts) => runShiro(args, { cwd, home, env: { OPENAI_BASE_URL: server.url }, ...opts }) });
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
