import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "./binary.ts";
import { filesContaining } from "./files-containing.ts";
import { TEST_API_KEY } from "./test-key.ts";

// Every temp dir a test makes (os.tmpdir() reads TMPDIR) lands in one folder of this run, removed at the end.
const runDir = mkdtempSync(join(tmpdir(), "shiro-test-run-"));
process.env.TMPDIR = runDir;
// Last, a sweep: no file any test left behind (session files, projects, homes) holds the API key.
// (Its own time limit: a whole run's folders on a busy machine take longer than one test may.)
afterAll(() => {
  const leaked = filesContaining(runDir, TEST_API_KEY);
  rmSync(runDir, { recursive: true, force: true });
  if (leaked.length) throw new Error(`the API key was written to ${leaked.length} file(s) under the test homes: ${leaked.slice(0, 5).join(", ")}`);
}, 600_000);

// No test may touch the real home: its ~/.shiro-neko, nor the files (~/.profile, ~/.bashrc) a shell a
// test starts may run — on some machines those do slow, lock-taking work a killed test can leave stuck.
process.env.HOME = mkdtempSync(join(runDir, "shiro-test-home-"));
process.env.SHIRO_HOME = mkdtempSync(join(runDir, "shiro-test-shirohome-"));

// End-to-end tests spawn the compiled binary; make sure it matches the sources before any test runs.
ensureBinary();
