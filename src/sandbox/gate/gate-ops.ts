import { readFileSync, statSync } from "node:fs";
import { AT, AT_FDCWD, close, E, openPlain, openResolved, pathBytes, realOf, result, S, statAt, statFd, type Stat } from "./gate-calls.ts";
import { libc, ptr, sys } from "./gate-libc.ts";
import { changeRefusal, idOf, moveRefusal, needsRealPath, readRefusal, type GateRules } from "./gate-rules.ts";
import type { OpenFlags } from "./open-flags.ts";
import { connectAs } from "./connect-op.ts";
import { entryAs, modeAs, openAs, translate, type Entry } from "./process-paths.ts";
import { readBytes, readString } from "./remote.ts";
import type { Answer, Call } from "./gate-answer.ts";


const F_SETFL = 4;
const int = (n: number) => n | 0; // an int argument: the register's low 32 bits, signed

/**
 * Runs each watched call on the process's behalf, inside the same Landlock domain, after checking it
 * against `rules` — on the gate's own copy of its arguments. `stillValid` asks the kernel whether the
 * call is still waiting (its process not gone and its id not reused) before anything is changed.
 */
export function createGateOps(rules: GateRules, flags: OpenFlags, stillValid: () => boolean) {
  const procDev = statSync("/proc").dev;
  const F = flags;

  /** A file of the gate's own under /proc (its memory, its environment): never handed to a process. */
  const gatesOwn = (st: Stat, fd: number) => {
    if (st.dev !== procDev) return false;
    const real = realOf(fd);
    const m = typeof real === "string" ? /^\/proc\/(\d+)(?:\/task\/(\d+))?(?:\/|$)/.exec(real) : null;
    return !!m && [m[1], m[2]].some((n) => n !== undefined && (Number(n) === process.pid || statSync(`/proc/self/task/${n}`, { throwIfNoEntry: false }) !== undefined));
  };

  // Each process's umask, read once from /proc; a umask() call anywhere forgets them all (threads share one).
  const umasks = new Map<number, number>();
  const umaskOf = (pid: number) => {
    let mask = umasks.get(pid);
    if (mask === undefined) {
      try {
        mask = parseInt(/^Umask:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/status`, "latin1"))?.[1] ?? "22", 8);
      } catch {
        mask = 0o22;
      }
      umasks.set(pid, mask);
    }
    return mask;
  };

  function read(pid: number, dirfd: number, path: string, openFlags: number, mode: number, resolve: number): Answer {
    // A FIFO is not opened here even for a moment: a reader, however brief, would let a waiting writer in
    // (to find nobody once it left). It is pinned by an O_PATH handle and opened off the loop.
    const blocks = !(openFlags & F.NONBLOCK) && !(openFlags & F.PATH) && (modeAs(pid, dirfd, path, rules.shm) & S.IFMT) === S.IFIFO;
    // Anything else is opened without blocking all the same (what it is may change meanwhile), the process's status flags put back after.
    const fd = openAs(pid, dirfd, path, blocks ? F.PATH | F.CLOEXEC : (openFlags & F.VALID) | F.CLOEXEC | F.NONBLOCK, mode, resolve, rules.shm);
    if (fd < 0) return { error: -fd };
    const st = statFd(fd);
    const refused = typeof st === "number" ? -st : readRefusal(rules, idOf(st), needsRealPath(rules) ? str(realOf(fd)) : undefined) || (gatesOwn(st, fd) ? E.EACCES : 0);
    if (refused) return closed(fd, refused);
    // A regular file or folder ignores O_NONBLOCK: only what can block gets the process's own status back.
    const kind = typeof st === "number" ? 0 : st.mode & S.IFMT;
    if (blocks) return openPinned(fd, kind, openFlags);
    if (!(openFlags & F.NONBLOCK) && kind !== S.IFREG && kind !== S.IFDIR) libc().fcntl(fd, F_SETFL, openFlags & F.STATUS);
    return { fd, cloexec: (openFlags & F.CLOEXEC) !== 0 };
  }

  function open(pid: number, dirfd: number, pathAddr: number, openFlags: number, mode: number, resolve = 0): Answer {
    const path = readString(pid, pathAddr);
    if (typeof path === "number") return { error: -path };
    const creates = (openFlags & F.CREAT) !== 0;
    const writes = (openFlags & 3) !== 0 || (openFlags & F.TRUNC) !== 0 || creates;
    if (!writes || (openFlags & F.PATH) !== 0 || (openFlags & F.TMPFILE_BIT) !== 0) return read(pid, dirfd, path, openFlags, openFlags & F.TMPFILE_BIT ? mode & 0o7777 : 0, resolve);
    if (resolve) return { error: E.EINVAL }; // openat2's resolve rules on a write: not a form builds use
    const own = translate(pid, path, rules.shm);
    if (own && own.rest === "") return reopenOwn(own.prefix, openFlags);
    const follow = (openFlags & F.NOFOLLOW) === 0 && !(creates && (openFlags & F.EXCL) !== 0);
    const entry = entryAs(pid, dirfd, path, follow, rules.shm);
    if (typeof entry === "number") return { error: -entry };
    const st = statAt(entry.dir, entry.name, false);
    const refused = typeof st !== "number" ? changeRefusal(rules, entry.real, idOf(st)) : creates ? changeRefusal(rules, entry.real) : 0;
    if (refused || !stillValid()) return closed(entry.dir, refused || E.ENOENT);
    if (typeof st !== "number" && (st.mode & S.IFMT) === S.IFIFO && !(openFlags & F.NONBLOCK)) {
      const pinned = openResolved(entry.dir, entry.name, F.PATH | F.NOFOLLOW | F.CLOEXEC, 0, 0);
      close(entry.dir);
      return pinned < 0 ? { error: -pinned } : openPinned(pinned, S.IFIFO, openFlags);
    }
    const fd = openResolved(entry.dir, entry.name + (entry.slash ? "/" : ""), (openFlags & F.VALID) | F.CLOEXEC | (follow ? F.NOFOLLOW : 0), creates ? mode & 0o7777 & ~umaskOf(pid) : 0, 0);
    close(entry.dir);
    if (fd < 0) return { error: -fd };
    return { fd, cloexec: (openFlags & F.CLOEXEC) !== 0 };
  }

  /** `/dev/stderr`, `/proc/self/fd/3`: a file the process has open already, judged where it really is before it is opened to write. */
  function reopenOwn(prefix: string, openFlags: number): Answer {
    const pinned = openPlain(AT_FDCWD, prefix, F.PATH | F.CLOEXEC);
    if (pinned < 0) return { error: -pinned };
    const st = statFd(pinned);
    if (typeof st === "number") return closed(pinned, -st);
    const real = realOf(pinned);
    const refused = changeRefusal(rules, typeof real === "string" ? real : "", idOf(st));
    return refused ? closed(pinned, refused) : openPinned(pinned, st.mode & S.IFMT, openFlags);
  }

  /**
   * Opens what the O_PATH handle `pinned` holds with the process's flags (and closes the handle). A FIFO
   * waits for its other end, which may be the very process the gate must answer next: it is opened
   * without waiting where it can be, else finished off the loop (fifo-opener.ts).
   */
  function openPinned(pinned: number, kind: number, openFlags: number): Answer {
    const flags = (openFlags & F.VALID & ~(F.CREAT | F.EXCL)) | F.CLOEXEC;
    const cloexec = (openFlags & F.CLOEXEC) !== 0;
    const blocks = kind === S.IFIFO && !(openFlags & F.NONBLOCK);
    if (blocks && (openFlags & 3) === 0) return { later: { pinned, flags, cloexec } }; // a reader waits for its writer
    // A writer with a reader already there does not wait: most pipes (`> /dev/stderr`) are that.
    const fd = openPlain(AT_FDCWD, `/proc/self/fd/${pinned}`, flags | (blocks ? F.NONBLOCK : 0));
    if (blocks && fd === -E.ENXIO) return { later: { pinned, flags, cloexec } };
    close(pinned);
    if (fd < 0) return { error: -fd };
    if (blocks) libc().fcntl(fd, F_SETFL, openFlags & F.STATUS);
    return { fd, cloexec };
  }

  /** Resolves each named entry, asks `judge` of them, then `act`s on them; every folder handle is closed after. */
  function change(pid: number, names: { dirfd: number; addr: number; follow?: boolean }[], judge: (entries: Entry[], stats: (Stat | number)[]) => number, act: (entries: Entry[]) => number): Answer {
    const entries: Entry[] = [];
    try {
      for (const n of names) {
        const path = readString(pid, n.addr);
        if (typeof path === "number") return { error: -path };
        const entry = entryAs(pid, n.dirfd, path, n.follow ?? false, rules.shm);
        if (typeof entry === "number") return { error: -entry };
        entries.push(entry);
      }
      const refused = judge(entries, entries.map((e) => statAt(e.dir, e.name, false)));
      if (refused) return { error: refused };
      if (!stillValid()) return { error: E.ENOENT };
      const r = act(entries);
      return r < 0 ? { error: -r } : { value: r };
    } finally {
      for (const e of entries) close(e.dir);
    }
  }

  const existing = (e: Entry, st: Stat | number, moving: boolean) => (typeof st === "number" ? 0 : moving ? moveRefusal(rules, e.real, idOf(st)) : changeRefusal(rules, e.real, idOf(st)));
  const made = (e: Entry, st: Stat | number) => (typeof st === "number" ? changeRefusal(rules, e.real) : moveRefusal(rules, e.real, idOf(st)));
  // The C strings of one call stay referenced until it returns (a pointer alone keeps nothing alive).
  const keep: Buffer[] = [];
  const c = (s: string) => {
    const b = pathBytes(s);
    keep.push(b);
    return ptr(b);
  };
  const at = (e: Entry) => [e.dir, c(e.name)] as const;

  function unlink(pid: number, dirfd: number, addr: number, flags: number): Answer {
    return change(pid, [{ dirfd, addr }], ([e], [st]) => existing(e!, st!, true), ([e]) => result(sys("unlinkat", e!.dir, c(e!.name), flags & AT.REMOVEDIR)));
  }

  function rename(pid: number, a: number[], flags: number): Answer {
    const [od, op, nd, np] = a as [number, number, number, number];
    // RENAME_EXCHANGE (2) moves both; otherwise the new name is made, or replaced.
    return change(pid, [{ dirfd: od, addr: op }, { dirfd: nd, addr: np }], ([o, n], [so, sn]) => existing(o!, so!, true) || (flags & 2 ? existing(n!, sn!, true) : made(n!, sn!)), ([o, n]) => result(sys("renameat2", o!.dir, c(o!.name), n!.dir, c(n!.name), flags)));
  }

  function link(pid: number, a: number[], flags: number): Answer {
    const [od, op, nd, np] = a as [number, number, number, number];
    if (flags & AT.EMPTY_PATH) return { error: E.EPERM }; // linking an open file back in: not what a build does
    // A new name for a kept file would let it be written through that name: the source is judged as a change.
    return change(pid, [{ dirfd: od, addr: op, follow: (flags & AT.SYMLINK_FOLLOW) !== 0 }, { dirfd: nd, addr: np }], ([o, n], [so, sn]) => existing(o!, so!, false) || made(n!, sn!), ([o, n]) => result(sys("linkat", o!.dir, c(o!.name), n!.dir, c(n!.name), 0)));
  }

  function make(pid: number, dirfd: number, addr: number, act: (e: Entry) => number): Answer {
    return change(pid, [{ dirfd, addr }], ([e], [st]) => made(e!, st!), ([e]) => act(e!));
  }

  function truncate(pid: number, addr: number, length: number): Answer {
    return change(pid, [{ dirfd: AT_FDCWD, addr, follow: true }], ([e], [st]) => existing(e!, st!, false), ([e]) => {
      const fd = openResolved(e!.dir, e!.name, 1 | F.CLOEXEC | F.NOFOLLOW | F.NONBLOCK, 0, 0);
      if (fd < 0) return fd;
      const r = result(sys("ftruncate", fd, length));
      close(fd);
      return r;
    });
  }

  return (call: Call): Answer => {
    const { pid, args: a } = call;
    keep.length = 0;
    switch (call.name) {
      case "open": return open(pid, AT_FDCWD, a[0]!, int(a[1]!), a[2]!);
      case "creat": return open(pid, AT_FDCWD, a[0]!, F.CREAT | F.WRONLY | F.TRUNC, a[1]!);
      case "openat": return open(pid, int(a[0]!), a[1]!, int(a[2]!), a[3]!);
      case "openat2": {
        if (a[3]! < 24) return { error: E.EINVAL };
        const how = readBytes(pid, a[2]!, 24);
        if (typeof how === "number") return { error: -how };
        const v = new DataView(how.buffer, how.byteOffset, 24);
        return open(pid, int(a[0]!), a[1]!, Number(v.getBigUint64(0, true)), Number(v.getBigUint64(8, true)), Number(v.getBigUint64(16, true)));
      }
      case "unlink": return unlink(pid, AT_FDCWD, a[0]!, 0);
      case "rmdir": return unlink(pid, AT_FDCWD, a[0]!, AT.REMOVEDIR);
      case "unlinkat": return unlink(pid, int(a[0]!), a[1]!, int(a[2]!));
      case "rename": return rename(pid, [AT_FDCWD, a[0]!, AT_FDCWD, a[1]!], 0);
      case "renameat": return rename(pid, [int(a[0]!), a[1]!, int(a[2]!), a[3]!], 0);
      case "renameat2": return rename(pid, [int(a[0]!), a[1]!, int(a[2]!), a[3]!], int(a[4]!));
      case "link": return link(pid, [AT_FDCWD, a[0]!, AT_FDCWD, a[1]!], 0);
      case "linkat": return link(pid, [int(a[0]!), a[1]!, int(a[2]!), a[3]!], int(a[4]!));
      case "mkdir": return make(pid, AT_FDCWD, a[0]!, (e) => result(sys("mkdirat", ...at(e), a[1]! & 0o7777 & ~umaskOf(pid))));
      case "mkdirat": return make(pid, int(a[0]!), a[1]!, (e) => result(sys("mkdirat", ...at(e), a[2]! & 0o7777 & ~umaskOf(pid))));
      case "mknod": return make(pid, AT_FDCWD, a[0]!, (e) => result(sys("mknodat", ...at(e), a[1]! & ~(umaskOf(pid) & 0o777), a[2]!)));
      case "mknodat": return make(pid, int(a[0]!), a[1]!, (e) => result(sys("mknodat", ...at(e), a[2]! & ~(umaskOf(pid) & 0o777), a[3]!)));
      case "symlink": return symlink(pid, a[0]!, AT_FDCWD, a[1]!);
      case "symlinkat": return symlink(pid, a[0]!, int(a[1]!), a[2]!);
      case "truncate": return truncate(pid, a[0]!, a[1]!);
      case "connect": return connectAs(rules, pid, int(a[0]!), a[1]!, a[2]!, stillValid);
      case "umask":
        umasks.clear();
        return { continue: true };
      default: return { error: E.EPERM };
    }
  };

  function symlink(pid: number, targetAddr: number, dirfd: number, addr: number): Answer {
    const target = readString(pid, targetAddr);
    if (typeof target === "number") return { error: -target };
    return make(pid, dirfd, addr, (e) => result(sys("symlinkat", c(target), ...at(e))));
  }
}

const str = (v: string | number) => (typeof v === "string" ? v : undefined);
function closed(fd: number, error: number): Answer {
  close(fd);
  return { error };
}
