/**
 * Issue 12, the read-side tools under the default rules (no --yolo: reads inside the project need no
 * approval): secret files and links out of the project through grep, glob, list_dir and read_file.
 * Nothing of theirs reaches the model, whichever engine grep searched with; what was left out is said.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../support/run-shiro.ts";
import { outputOf, scriptedJob } from "../../support/scripted-job.ts";
import { findTrusted } from "../../../src/process/trusted-program.ts";
import type { PlannedCall } from "../../support/scripts.ts";
import { toolHere } from "../../support/tool-here.ts";

const hasRg = toolHere("rg", findTrusted("rg").ok);

const CANARIES = ["canary-dotenv-7f3a", "canary-local-91bc", "canary-pem-55de", "canary-rsa-0c4e", "canary-passwd-e2a1", "canary-homekey-4b7f"];

/** A project holding secrets (all match TOKEN), links to a file outside and into the home's ~/.ssh, and a link to its .env. */
function fixture() {
  const outer = tempDir("secrets-e2e");
  const root = join(outer, "proj");
  const home = join(outer, "home");
  const files: Record<string, string> = {
    [join(root, ".env")]: `TOKEN=${CANARIES[0]}\n`,
    [join(root, ".env.local")]: `TOKEN=${CANARIES[1]}\n`,
    [join(root, "server.pem")]: `TOKEN=${CANARIES[2]}\n`,
    [join(root, "keys/id_rsa")]: `TOKEN=${CANARIES[3]}\n`,
    [join(root, "src/app.ts")]: "export const TOKEN = process.env.TOKEN;\n",
    [join(outer, "outside/passwd")]: `TOKEN=${CANARIES[4]}\n`,
    [join(home, ".ssh/id_rsa")]: `TOKEN=${CANARIES[5]}\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  }
  symlinkSync(join(outer, "outside/passwd"), join(root, "src/passwd.txt"));
  symlinkSync(join(home, ".ssh/id_rsa"), join(root, "src/deploy-key.txt"));
  symlinkSync("../.env", join(root, "src/settings.txt"));
  return { root, home };
}

const calls: PlannedCall[] = [
  { name: "grep", arguments: { pattern: "TOKEN" } },
  { name: "grep", arguments: { pattern: ".", glob: ".env*" } },
  { name: "glob", arguments: { pattern: "**/*" } },
  { name: "list_dir", arguments: { depth: 3 } },
  { name: "read_file", arguments: { path: ".env" } },
  { name: "read_file", arguments: { path: "src/passwd.txt" } },
  { name: "read_file", arguments: { path: "src/deploy-key.txt" } },
  { name: "read_file", arguments: { path: "src/settings.txt" } },
];

const ENGINES: [string, Record<string, string>][] = [
  ["with ripgrep", {}],
  // grep takes rg from the system folders alone: a run whose folders hold none searches without it.
  ["without ripgrep", { SHIRO_SYSTEM_DIRS: "/nonexistent-no-rg" }],
];

describe("secret files and links out of the project, through the read tools, default rules", () => {
  for (const [engine, env] of ENGINES) {
    test.skipIf(engine === "with ripgrep" && !hasRg)(`grep ${engine}, glob, list_dir, read_file: no secret byte reaches the model; what was left out is said`, async () => {
      const { root, home } = fixture();
      const job = await scriptedJob(calls, { cwd: root, home, env });
      const sent = job.requests.map((r) => r.raw).join("\n");
      expect(CANARIES.filter((canary) => sent.includes(canary) || job.stdout.includes(canary))).toEqual([]);

      const out = (name: string, match: (args: any) => boolean) => outputOf(job, name, match);
      expect(out("grep", (a) => a.pattern === "TOKEN")).toBe(
        "src/app.ts:1: export const TOKEN = process.env.TOKEN;\n[4 files skipped that this search may not read: secret files, or files a rule denies]",
      );
      expect(out("grep", (a) => a.glob === ".env*")).toBe("No matches for /./ in the project root (files matching .env*).\n[2 files skipped that this search may not read: secret files, or files a rule denies]");
      expect(out("glob", () => true)).toBe(
        [".env  [read denied]", ".env.local  [read denied]", "keys/id_rsa  [read denied]", "server.pem  [read denied]", "src/app.ts",
          "src/deploy-key.txt  [read denied]", "src/passwd.txt  [link out of the project]", "src/settings.txt  [read denied]"].join("\n"),
      );
      expect(out("list_dir", () => true)).toContain("    passwd.txt  [link out of the project]\n    settings.txt  [read denied]");
      expect(out("read_file", (a) => a.path === ".env")).toStartWith("Denied: permission rule deny .env (default: secret file)");
      expect(out("read_file", (a) => a.path === "src/passwd.txt")).toStartWith("Denied: ");
      expect(out("read_file", (a) => a.path === "src/deploy-key.txt")).toStartWith("Denied: permission rule deny");
      expect(out("read_file", (a) => a.path === "src/settings.txt")).toStartWith("Denied: permission rule deny");
      if (engine === "without ripgrep") expect(job.stderr.match(/grep: rg is not (installed|in a system folder).*; searching with the built-in scan/g)).toHaveLength(1);
      else expect(job.stderr).not.toContain("ripgrep");
    });
  }
});
