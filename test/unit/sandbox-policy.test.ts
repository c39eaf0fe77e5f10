import { describe, expect, test } from "bun:test";
import { bwrapArgv } from "../../src/sandbox/bwrap-argv.ts";
import { sandboxExecProfile } from "../../src/sandbox/sandbox-exec-profile.ts";
import { capLevel } from "../../src/sandbox/sandbox-mode.ts";
import type { SandboxPolicy } from "../../src/sandbox/sandbox-policy.ts";

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  root: "/work/proj",
  level: "workspace-write",
  network: true,
  maskFiles: ["/work/proj/.env", "/home/u/.netrc"],
  maskDirs: ["/home/u/.ssh"],
  keep: [],
  readOnly: [],
  ...over,
});

/** The mount operations in order, each as one string, so their order can be asserted. */
const mounts = (argv: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--ro-bind" || a === "--bind") out.push(`${a} ${argv[++i]} ${argv[++i]}`);
    else if (a === "--tmpfs" || a === "--remount-ro" || a === "--dev" || a === "--proc") out.push(`${a} ${argv[++i]}`);
  }
  return out;
};

describe("bwrap argv", () => {
  test("git's hooks and config stay read-only inside a writable project, bound after it", () => {
    const argv = bwrapArgv(policy({ readOnly: ["/work/proj/.git/hooks", "/work/proj/.git/config"], maskFiles: [], maskDirs: [] }), ["true"]);
    expect(mounts(argv).slice(4)).toEqual(["--bind /work/proj /work/proj", "--ro-bind /work/proj/.git/hooks /work/proj/.git/hooks", "--ro-bind /work/proj/.git/config /work/proj/.git/config"]);
    expect(sandboxExecProfile(policy({ readOnly: ["/work/proj/.git/hooks"] }), [])).toContain('(deny file-write* (subpath "/work/proj/.git/hooks"))');
  });

  test("read-only root, private /tmp, the project bound after /tmp, secrets masked last, the command after --", () => {
    const argv = bwrapArgv(policy(), ["bash", "-lc", "make"]);
    expect(argv.slice(0, 5)).toEqual(["bwrap", "--die-with-parent", "--unshare-pid", "--cap-drop", "ALL"]);
    expect(mounts(argv)).toEqual([
      "--ro-bind / /",
      "--dev /dev",
      "--proc /proc",
      "--tmpfs /tmp",
      "--bind /work/proj /work/proj",
      "--tmpfs /home/u/.ssh",
      "--remount-ro /home/u/.ssh",
      "--ro-bind /dev/null /work/proj/.env",
      "--ro-bind /dev/null /home/u/.netrc",
    ]);
    expect(argv.slice(argv.indexOf("--"))).toEqual(["--", "bash", "-lc", "make"]);
    expect(argv).toContain("--chdir");
    expect(argv).not.toContain("--unshare-net");
  });

  test("read-only binds the project read-only; no network unshares it; kept folders come before the project", () => {
    const argv = bwrapArgv(policy({ level: "read-only", network: false, keep: ["/tmp/home"], maskFiles: [], maskDirs: [] }), ["true"]);
    expect(argv).toContain("--unshare-net");
    expect(mounts(argv).slice(3)).toEqual(["--tmpfs /tmp", "--ro-bind /tmp/home /tmp/home", "--ro-bind /work/proj /work/proj"]);
  });
});

test("an approval's level never goes above the mode in force", () => {
  expect(capLevel("workspace-write", "read-only")).toBe("read-only");
  expect(capLevel("workspace-write", "workspace-write")).toBe("workspace-write");
  expect(capLevel("read-only", "workspace-write")).toBe("read-only");
});

describe("sandbox-exec profile (macOS)", () => {
  test("writes only to temp folders and the project, never to a secret's name in any case, secrets unreadable, network off on request", () => {
    const text = sandboxExecProfile(policy({ network: false }), ["/private/tmp"]);
    expect(text.split("\n")[0]).toBe("(version 1)");
    expect(text).toContain('(allow file-write* (subpath "/private/tmp") (subpath "/work/proj")');
    expect(text).toContain('(regex #"/\\.[eE][nN][vV](\\.[^/]*)?$")');
    expect(text).toContain('(deny file-read* file-write* (literal "/work/proj/.env") (literal "/home/u/.netrc") (subpath "/home/u/.ssh"))');
    expect(text.trim().split("\n").at(-1)).toBe("(deny network*)");
  });

  test("read-only leaves the project out of what may be written; a quote in a path cannot end the string", () => {
    const text = sandboxExecProfile(policy({ level: "read-only", root: '/w/a"b', maskFiles: [] }), ["/private/tmp"]);
    expect(text).toContain('(allow file-write* (subpath "/private/tmp") (literal "/dev/null")');
    expect(text).not.toContain("(subpath \"/w/a");
    expect(sandboxExecProfile(policy({ maskFiles: ['/w/a"b/.env'] }), [])).toContain('(literal "/w/a\\"b/.env")');
  });
});
