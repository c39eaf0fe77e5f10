import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary } from "./binary.ts";

// No test may touch the real home: its ~/.shiro-neko, nor the login files (~/.profile, ~/.bashrc) that
// `bash -lc` would run — on some machines those do slow, lock-taking work a killed test can leave stuck.
process.env.HOME = mkdtempSync(join(tmpdir(), "shiro-test-home-"));
process.env.SHIRO_HOME = mkdtempSync(join(tmpdir(), "shiro-test-shirohome-"));

// End-to-end tests spawn the compiled binary; make sure it matches the sources before any test runs.
ensureBinary();
