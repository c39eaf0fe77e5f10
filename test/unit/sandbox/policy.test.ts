import { describe, expect, test } from "bun:test";
import { bwrapArgs } from "../../../src/sandbox/bwrap-argv.ts";
import { sandboxLayout } from "../../../src/sandbox/sandbox-layout.ts";
import { sandboxExecProfile } from "../../../src/sandbox/sandbox-exec-profile.ts";
import { capLevel } from "../../../src/sandbox/sandbox-mode.ts";
import type { SandboxPolicy } from "../../../src/sandbox/sandbox-policy.ts";

const policy = (over: Partial<SandboxPolicy> = {}): SandboxPolicy => ({
  root: "/work/proj",
  level: "workspace-write",
  network: true,
  maskFiles: ["/work/proj/.env", "/home/u/.netrc"],
  maskDirs: ["/home/u/.ssh"],
  hide: [],
  readable: [],
  writable: [],
  readOnly: [],
  setenv: {},
  maxProcs: 64,
  ...over,
});

const joined = (...args: Parameters<typeof bwrapArgs>) => {
  const { options, command } = bwrapArgs(...args);
  return [...options, ...command];
};

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
    const argv = joined(policy({ readOnly: ["/work/proj/.git/hooks", "/work/proj/.git/config"], maskFiles: [], maskDirs: [] }), ["true"]);
    expect(mounts(argv).slice(4)).toEqual(["--bind /work/proj /work/proj", "--ro-bind /work/proj/.git/hooks /work/proj/.git/hooks", "--ro-bind /work/proj/.git/config /work/proj/.git/config"]);
    expect(sandboxExecProfile(policy({ readOnly: ["/work/proj/.git/hooks"] }), [])).toContain('(deny file-write* (subpath "/work/proj/.git/hooks"))');
  });

  test("read-only root, private /tmp, hidden folders, tools shown again, then the project, added folders, secrets masked last; the command behind a process limit, then the list of what it left in the private folders", () => {
    const argv = joined(policy({ hide: ["/home/u"], readable: ["/home/u/.cargo/bin"], writable: ["/data/out"] }), ["bash", "-c", "make"]);
    expect(argv.slice(0, 5)).toEqual(["--die-with-parent", "--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL"]);
    expect(mounts(argv)).toEqual([
      "--ro-bind / /",
      "--dev /dev",
      "--proc /proc",
      "--tmpfs /tmp",
      "--tmpfs /home/u",
      "--ro-bind /home/u/.cargo/bin /home/u/.cargo/bin",
      "--bind /work/proj /work/proj",
      "--bind /data/out /data/out",
      "--tmpfs /home/u/.ssh",
      "--remount-ro /home/u/.ssh",
      "--ro-bind /dev/null /work/proj/.env",
      "--ro-bind /dev/null /home/u/.netrc",
    ]);
    const listing = `{ find '/tmp' '/home/u' -xdev \\( -type f -o -type l \\) -print | head -n 6 >&5; } 2>/dev/null`;
    expect(argv.slice(argv.indexOf("--"))).toEqual(["--", "/bin/sh", "-c", `ulimit -u 64 2>/dev/null; "$@" 5>&- 6<&- 7<&-; status=$?; ${listing}; exit $status`, "sh", "bash", "-c", "make"]);
    expect(argv).toContain("--chdir");
    expect(argv).not.toContain("--unshare-net");
  });

  test("read-only binds the project and added folders read-only; no network unshares it", () => {
    const argv = joined(policy({ level: "read-only", network: false, writable: ["/data/out"], maskFiles: [], maskDirs: [] }), ["true"]);
    expect(argv).toContain("--unshare-net");
    // Offline in the session's namespace (a background job started): entered before bwrap, none of its own.
    expect(joined(policy({ level: "read-only", network: false, sharedNetwork: true, writable: [], maskFiles: [], maskDirs: [] }), ["true"])).not.toContain("--unshare-net");
    expect(mounts(argv).slice(3)).toEqual(["--tmpfs /tmp", "--ro-bind /work/proj /work/proj", "--ro-bind /data/out /data/out"]);
  });
});

describe("sandbox layout", () => {
  test("the homes and the project's parent are hidden, /run too when offline; a system parent or / never", () => {
    expect(sandboxLayout({ root: "/home/u/code/proj", homes: ["/home/u"], network: false, readable: [] }).hide).toEqual(["/run", "/home/u"]);
    expect(sandboxLayout({ root: "/srv/work/proj", homes: ["/home/u"], network: true, readable: [] }).hide).toEqual(["/home/u", "/srv/work"]);
    expect(sandboxLayout({ root: "/usr/src/proj", homes: ["/root"], network: true, readable: [] }).hide).toEqual(["/root"]);
    expect(sandboxLayout({ root: "/proj", homes: ["/root"], network: true, readable: [] }).hide).toEqual(["/root"]);
  });

  test("started below a repository's top: the top is shown read-only and its parent hidden instead of the package's", () => {
    const layout = sandboxLayout({ root: "/home/u/code/mono/packages/app", top: "/home/u/code/mono", homes: ["/home/u"], network: true, readable: [] });
    expect(layout.hide).toEqual(["/home/u"]);
    expect(layout.readable).toEqual(["/home/u/code/mono"]);
  });

  test("a project that is the home hides only its siblings (other homes); readable folders inside the project are not bound again", () => {
    const layout = sandboxLayout({ root: "/home/u", homes: ["/home/u"], network: true, readable: ["/home/u/docs", "/opt/shared"] });
    expect(layout.hide).toEqual(["/home"]);
    expect(layout.readable).toEqual(["/opt/shared"]);
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
