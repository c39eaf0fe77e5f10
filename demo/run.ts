/**
 * `bun run demo`: the compiled binary finishes a real tool-using job offline. A local stand-in for
 * the Responses API (the strict test server with a scripted model) answers instead of OpenAI; shiro
 * itself runs exactly as it would against the real API. Its temporary folders go when it ends.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, ensureBinary } from "../test/support/binary.ts";
import { tempDir } from "../test/support/run-shiro.ts";
import { startStrictServer } from "../test/support/strict-server.ts";
import { demoModel } from "../test/support/scripts.ts";

ensureBinary();
const project = tempDir("demo");
const home = tempDir("demo-home");
const server = await startStrictServer({ defaultModel: demoModel, paceMs: 4 });
let proc: ReturnType<typeof Bun.spawn> | undefined;
// Ctrl-C reaches shiro too, which stops and exits 130: the demo then fails as it ends, tidying up.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => proc?.kill(signal));
try {
  process.exitCode = await demo();
} finally {
  await server.stop();
  for (const dir of [project, home]) rmSync(dir, { recursive: true, force: true });
}

async function demo(): Promise<number> {
  mkdirSync(join(project, "notes"));
  writeFileSync(join(project, "notes/todo.txt"), "write the release notes\nanswer the support ticket about exports\nupgrade the CI image\n");
  writeFileSync(join(project, "notes/done.txt"), "fix the login redirect\nreview the caching pull request\n");

  // Instead of --yolo, one permission rule lets shiro write Markdown notes; everything else still asks.
  const config = JSON.stringify({ permissions: [{ decision: "allow", tool: "write_file", pattern: "notes/*.md" }] });
  writeFileSync(join(home, "config.json"), config + "\n");

  const prompt = "Read my notes (todo and done) and write notes/summary.md listing both, then tell me what you did.";
  console.log(`$ cat $SHIRO_HOME/config.json\n${config}`);
  console.log(`$ cd ${project}`);
  console.log(`$ shiro -p "${prompt}"\n`);

  proc = Bun.spawn([BINARY, "-p", prompt], {
    cwd: project,
    stdout: "inherit",
    stderr: "inherit",
    stdin: "ignore",
    env: { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "offline-demo", SHIRO_HOME: home },
  });
  const code = await proc.exited;

  const summary = Bun.file(join(project, "notes/summary.md"));
  if (code !== 0 || !(await summary.exists())) {
    console.error(`\ndemo failed: shiro exited ${code}${(await summary.exists()) ? "" : " and notes/summary.md was not written"}`);
    return 1;
  }
  console.log(`\n$ cat notes/summary.md\n${await summary.text()}`);
  console.log(`shiro exited ${code} after ${server.calls} model calls. Run it for real with OPENAI_API_KEY set (see README.md).`);
  return 0;
}
