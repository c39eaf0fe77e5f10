/**
 * A server the person asked to run in the sandbox (`"sandbox": "read-only"`) whose program is installed
 * outside the project — where the sandbox shows a command nothing (a folder in /tmp beside the project,
 * as a fresh clone made with `mktemp -d` is): it starts, on bubblewrap and on Landlock, found by path, by
 * a link on its PATH, by a script in its own `cwd`, or as node running server-everything from this
 * checkout. Only its installation is shown: what lies beside it and the home stay out of its sight (its
 * start-up script would refuse to go on). A program that is nowhere is "command not found" by name, as
 * outside the sandbox, not a shell's "not found" from inside it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EVERYTHING } from "../../support/mcp-servers.ts";
import { mcpJob, mcpToolsOf, TOOL_SERVER } from "../../support/mcp-run.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { RUNNER_BACKENDS } from "../../support/runner-backends.ts";
import { simulationHolds } from "../../support/no-userns.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A server installed in a folder of its own beside the project (a package: package.json, its code, a bin script), a link to it in another folder, and files that must stay hidden. */
function installed() {
  const outer = tempDir("mcp-installed");
  const home = tempDir("mcp-installed-home");
  dirs.push(outer, home);
  const pkg = join(outer, "srv");
  mkdirSync(join(pkg, "bin"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), '{ "name": "srv" }');
  copyFileSync(TOOL_SERVER, join(pkg, "server.ts"));
  const beside = join(outer, "private.txt");
  const notes = join(home, "notes.txt");
  writeFileSync(beside, "beside the installation\n");
  writeFileSync(notes, "the person's notes\n");
  // It starts only if it cannot read what lies beside its installation, nor the home.
  const bin = join(pkg, "bin", "srv");
  writeFileSync(bin, `#!/bin/sh\nfor f in ${beside} ${notes}; do if cat "$f" >/dev/null 2>&1; then echo "read $f" >&2; exit 7; fi; done\nexec ${process.execPath} ${join(pkg, "server.ts")} 1\n`, { mode: 0o755 });
  mkdirSync(join(outer, "links"));
  symlinkSync(bin, join(outer, "links", "srv"));
  return { pkg, bin, home, path: `${join(outer, "links")}:${process.env.PATH}` };
}

const boxed = { sandbox: "read-only" };
const mcpLines = (stderr: string) => stderr.split("\n").filter((line) => line.includes("MCP server"));

describe("a sandboxed server installed outside the project", () => {
  for (const backend of RUNNER_BACKENDS)
    test.skipIf(!backend.runs)(`starts by path, by a link on its PATH, in its own cwd, and as node from PATH (${backend.name})`, async () => {
      if (backend.wrap.length) expect(simulationHolds()).toBeUndefined();
      const at = installed();
      // shiro's own temp folders (a Landlock command's) go in here: none may be left once the servers are gone.
      const tmp = tempDir("mcp-tmp");
      dirs.push(tmp);
      const run = await mcpJob([], {
        servers: {
          bypath: { command: at.bin, ...boxed },
          onpath: { command: "srv", ...boxed },
          incwd: { command: process.execPath, args: ["server.ts", "1"], cwd: at.pkg, ...boxed },
          everything: { command: "node", args: [EVERYTHING, "stdio"], enabledTools: ["echo"], ...boxed },
          missing: { command: "no-such-mcp-server", ...boxed },
        },
        home: at.home,
        env: { PATH: at.path, TMPDIR: tmp },
        wrap: backend.wrap,
      });
      expect(run.code).toBe(0);
      expect(readdirSync(tmp)).toEqual([]);
      expect(mcpToolsOf(run.requests[0]!.body).map((t) => t.name)).toEqual(["mcp__bypath__t1", "mcp__everything__echo", "mcp__incwd__t1", "mcp__onpath__t1"]);
      expect(mcpLines(run.stderr)).toEqual(['! MCP server "missing" did not start: command not found: no-such-mcp-server (not on the PATH of the environment it is given); the run goes on without it']);
    }, 60_000);

  test("the control: outside the sandbox the same program reads what the sandbox hid from it, and says so", async () => {
    const at = installed();
    const run = await mcpJob([], { servers: { bypath: { command: at.bin }, missing: { command: "no-such-mcp-server" } }, home: at.home, env: { PATH: at.path } });
    expect(run.code).toBe(0);
    expect(mcpLines(run.stderr).sort()).toEqual([
      `! MCP server "bypath" did not start: it exited with code 7; its stderr ends: read ${join(at.pkg, "..", "private.txt")}; the run goes on without it`,
      '! MCP server "missing" did not start: command not found: no-such-mcp-server (not on the PATH of the environment it is given); the run goes on without it',
    ]);
  }, 30_000);
});
