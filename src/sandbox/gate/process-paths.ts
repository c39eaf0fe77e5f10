import { AT_FDCWD, close, E, openDir, openPlain, openResolved, readlinkAt, realOf, RESOLVE_NO_MAGICLINKS, S, statAt, type Stat } from "./gate-calls.ts";

/**
 * A path as the sandboxed process `pid` means it, opened by the gate: relative to its working folder
 * or to one of its open folders, `/proc/self`, `/dev/fd/N`, `/dev/stdout` as its own rather than the
 * gate's, and `/dev/shm` as the command's own (`shm`: Landlock cannot make a private one, so the gate
 * keeps the command's POSIX shared memory in its own folder). What follows such a prefix, and any path
 * the process wrote, is resolved with no /proc magic link (RESOLVE_NO_MAGICLINKS): a link the process
 * planted cannot lead the gate to its own files.
 */
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;
const MAX_LINKS = 40;

/** The prefix the gate opens itself (magic links and all: it names the process's own), and the rest. */
export function translate(pid: number, path: string, shm?: string): { prefix: string; rest: string } | undefined {
  if (!path.startsWith("/proc/") && !path.startsWith("/dev/")) return undefined; // most paths: no pattern to try
  const shared = /^\/dev\/shm(\/.*)?$/.exec(path);
  if (shared && shm) return { prefix: shm, rest: (shared[1] ?? "").replace(/^\/+/, "") };
  const std = /^\/dev\/std(in|out|err)(\/.*)?$/.exec(path);
  if (std) return { prefix: `/proc/${pid}/fd/${["in", "out", "err"].indexOf(std[1]!)}`, rest: (std[2] ?? "").replace(/^\/+/, "") };
  const fd = /^\/dev\/fd(?:\/(\d+))?(\/.*)?$/.exec(path);
  if (fd) return { prefix: `/proc/${pid}/fd${fd[1] === undefined ? "" : `/${fd[1]}`}`, rest: (fd[2] ?? "").replace(/^\/+/, "") };
  const self = /^\/proc\/(?:self|thread-self)(?:\/(fd\/\d+|cwd|root|exe))?(\/.*)?$/.exec(path);
  if (self) return { prefix: `/proc/${pid}${self[1] === undefined ? "" : `/${self[1]}`}`, rest: (self[2] ?? "").replace(/^\/+/, "") };
  return undefined;
}

/** The folder a relative path of the process starts from (an O_PATH handle the caller closes), or -errno. */
export function baseOf(pid: number, dirfd: number): number {
  const fd = openPlain(AT_FDCWD, dirfd === AT_FDCWD ? `/proc/${pid}/cwd` : `/proc/${pid}/fd/${dirfd}`, O_PATH | 0o200000 | O_CLOEXEC);
  return fd === -E.ENOENT ? -E.EBADF : fd;
}

/** Opens `path` as the process would (`dirfd` its own), with `flags`; an fd of the gate's, or -errno. */
export function openAs(pid: number, dirfd: number, path: string, flags: number, mode: number, resolve = 0, shm?: string): number {
  return fromBase(pid, dirfd, path, shm, (prefix) => openPlain(AT_FDCWD, prefix, flags, mode), (base, rest) => openResolved(base, rest, flags, mode, resolve | RESOLVE_NO_MAGICLINKS));
}

/** What `path` is, as the process would find it (links followed): its mode, or -errno. */
export function modeAs(pid: number, dirfd: number, path: string, shm?: string): number {
  const mode = (st: Stat | number) => (typeof st === "number" ? st : st.mode);
  return fromBase(pid, dirfd, path, shm, (prefix) => mode(statAt(AT_FDCWD, prefix, true)), (base, rest) => mode(statAt(base, rest, true)));
}

/** `whole` of a translated prefix alone, else `within` the folder the path starts from (closed after) and the rest of it. */
function fromBase(pid: number, dirfd: number, path: string, shm: string | undefined, whole: (prefix: string) => number, within: (base: number, rest: string) => number): number {
  if (path === "") return -E.ENOENT;
  const t = translate(pid, path, shm);
  if (t && t.rest === "") return whole(t.prefix);
  const base = t ? openPlain(AT_FDCWD, t.prefix, O_PATH | O_CLOEXEC) : path.startsWith("/") ? AT_FDCWD : baseOf(pid, dirfd);
  if (base < 0 && base !== AT_FDCWD) return base;
  const r = within(base, t ? t.rest : path);
  close(base);
  return r;
}

/** An entry to make, remove or rename: its folder (an O_PATH handle to close), its name there, and its real path. */
export type Entry = { dir: number; name: string; real: string; slash: boolean };

/**
 * Where `path` names an entry: its folder opened as the process would, and the last name in it — with
 * `follow`, a final link followed to where it leads (as open(O_CREAT) and link(AT_SYMLINK_FOLLOW) do),
 * so the check and the act both fall on the real entry.
 */
export function entryAs(pid: number, dirfd: number, path: string, follow: boolean, shm?: string): Entry | number {
  return entryFrom((dirPart) => openAs(pid, dirfd, dirPart, O_PATH | 0o200000 | O_CLOEXEC, 0, 0, shm), pid, path, follow, 0, shm);
}

function entryFrom(openParent: (dir: string) => number, pid: number, path: string, follow: boolean, hops: number, shm?: string): Entry | number {
  if (path === "") return -E.ENOENT;
  const trimmed = path.replace(/\/+$/, "") || "/";
  const cut = trimmed.lastIndexOf("/");
  const dirPart = cut < 0 ? "." : cut === 0 ? "/" : trimmed.slice(0, cut);
  const name = trimmed === "/" ? "." : trimmed.slice(cut + 1);
  const dir = openParent(dirPart);
  if (dir < 0) return dir;
  if (follow) {
    const st = statAt(dir, name, false);
    if (typeof st !== "number" && (st.mode & S.IFMT) === S.IFLNK) {
      const target = readlinkAt(dir, name);
      if (typeof target === "number" || hops >= MAX_LINKS) {
        close(dir);
        return typeof target === "number" ? target : -E.ELOOP;
      }
      // A relative target is read from the link's own folder; an absolute one as the process would.
      const next = target.startsWith("/")
        ? entryFrom((d) => openAs(pid, AT_FDCWD, d, O_PATH | 0o200000 | O_CLOEXEC, 0, 0, shm), pid, target, true, hops + 1, shm)
        : entryFrom((d) => openDir(dir, d), pid, target, true, hops + 1, shm);
      close(dir);
      return next;
    }
  }
  const real = realOf(dir);
  if (typeof real === "number") {
    close(dir);
    return real;
  }
  return { dir, name, real: name === "." ? real : `${real === "/" ? "" : real}/${name}`, slash: trimmed !== path && trimmed !== "/" };
}
