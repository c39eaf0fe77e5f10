/**
 * Issue 11, secret files through shiro's own read tools. These run inside shiro, not in bash, so no
 * sandbox around bash covers them: docs/permissions.md denies secret files "for every tool, reads
 * included", and a search over a folder must not return what a read of the file may not. Not
 * sandbox-dependent, so never skipped. (No plain-bash control: a tool has no shell twin, and the
 * fixture's secrets are plain text files any reader returns.)
 */
import { describe, expect, test } from "bun:test";
import { secretFixture } from "../../support/attack-secrets.ts";
import { attackThroughShiro, gotThrough, seenAnywhere } from "../../support/attack-run.ts";
import type { PlannedCall } from "../../support/scripts.ts";

const grep = (args: Record<string, string>): PlannedCall => ({ name: "grep", arguments: args });
const readFile = (path: string): PlannedCall => ({ name: "read_file", arguments: { path } });

describe("attack: secret files through the file tools, under --yolo", () => {
  test("grep over a folder holding secrets, and read_file through /proc links: nothing read", async () => {
    const fx = secretFixture();
    const { root, home } = fx.layout;
    const run = await attackThroughShiro(
      fx.layout,
      [
        grep({ pattern: "KEY|leak", path: "." }),
        grep({ pattern: ".", glob: ".env*" }),
        grep({ pattern: "leak", path: "sub/.." }),
        grep({ pattern: "PRIVATE KEY|password|aws_secret", path: home }), // the home: only a person opens it, --yolo does not
        grep({ pattern: "leak", path: "../../home/.aws" }),
        readFile(`/proc/self/root${root}/.env`),
        readFile("/proc/self/cwd/.env.local"),
        readFile("/proc/thread-self/cwd/server.pem"),
      ],
      fx.judge,
    );
    expect(gotThrough(run.outcomes)).toEqual([]);
    expect(seenAnywhere(fx, run)).toEqual({ requestBodies: [], stdout: [] });
  });
});
