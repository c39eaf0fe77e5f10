import { close, E, result } from "./gate-calls.ts";
import { errno, libc, ptr, sys } from "./gate-libc.ts";
import type { Answer } from "./gate-answer.ts";
import { connectRefusal, type GateRules } from "./gate-rules.ts";
import { entryAs } from "./process-paths.ts";
import { readBytes } from "./remote.ts";

const AF_UNIX = 1;
const SUN_PATH = 108;

/**
 * connect(fd, addr, len) of a process with no network: only Unix (and netlink) sockets exist there,
 * and a Unix socket may be reached only where the command's own are — not an agent's in the home,
 * not docker.sock. The gate reads the address once, judges where the path really leads, then
 * connects the process's own socket (taken with pidfd_getfd: the same socket) to that very file, so
 * the address cannot change after the check.
 */
export function connectAs(rules: GateRules, pid: number, fd: number, addrAt: number, length: number, stillValid: () => boolean): Answer {
  if (length < 2 || length > 2 + SUN_PATH) return { error: E.EINVAL };
  const addr = readBytes(pid, addrAt, length);
  if (typeof addr === "number") return { error: -addr };
  const family = addr[0]! | (addr[1]! << 8);
  let target = addr;
  if (family === AF_UNIX && length > 2) {
    const name = addr.subarray(2);
    const end = name.indexOf(0);
    if (name[0] === 0) {
      const refused = connectRefusal(rules, undefined);
      if (refused) return { error: refused };
    } else {
      const path = Buffer.from(name.subarray(0, end < 0 ? name.length : end)).toString("latin1");
      const entry = entryAs(pid, -100, path, true, rules.shm);
      if (typeof entry === "number") return { error: -entry };
      const refused = connectRefusal(rules, entry.real);
      // The very file judged, through the folder handle held: no link swapped in meanwhile can move it.
      const via = Buffer.from(`/proc/self/fd/${entry.dir}/${entry.name}`, "latin1");
      if (refused || via.length >= SUN_PATH) {
        close(entry.dir);
        return { error: refused || E.ENAMETOOLONG };
      }
      target = new Uint8Array(2 + via.length + 1);
      target[0] = AF_UNIX;
      target.set(via, 2);
      return withSocket(pid, fd, stillValid, (own) => result(libc().connect(own, ptr(target), target.length) as number), () => close(entry.dir));
    }
  }
  return withSocket(pid, fd, stillValid, (own) => result(libc().connect(own, ptr(target), target.length) as number));
}

/** `act` on the process's socket `fd`, taken into the gate for the moment (pidfd_getfd: the same open socket). */
function withSocket(pid: number, fd: number, stillValid: () => boolean, act: (own: number) => number, after = () => {}): Answer {
  const pidfd = sys("pidfd_open", pid, 0);
  const own = pidfd < 0 ? -1 : sys("pidfd_getfd", pidfd, fd, 0);
  const failure = own < 0 ? errno() : 0;
  close(pidfd);
  try {
    if (own < 0) return { error: failure === E.EBADF ? E.EBADF : failure || E.EBADF };
    if (!stillValid()) return { error: E.ENOENT };
    const r = act(own);
    return r < 0 ? { error: -r } : { value: r };
  } finally {
    close(own);
    after();
  }
}
