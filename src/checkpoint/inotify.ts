import { dlopen, ptr } from "bun:ffi";

/**
 * Linux inotify through bun:ffi: which folder entries changed since the last drain, so a checkpoint
 * after a turn that changed nothing costs a read of an empty queue, not a stat of every file. The
 * kernel queues each event as the change happens, so once a command has exited its changes are
 * all in the queue. Nothing here loads a library until a watch is opened.
 */

const IN = {
  MODIFY: 0x2,
  ATTRIB: 0x4,
  CLOSE_WRITE: 0x8,
  MOVED_FROM: 0x40,
  MOVED_TO: 0x80,
  CREATE: 0x100,
  DELETE: 0x200,
  DELETE_SELF: 0x400,
  MOVE_SELF: 0x800,
  Q_OVERFLOW: 0x4000,
  IGNORED: 0x8000,
  ONLYDIR: 0x1000000,
  DONT_FOLLOW: 0x2000000,
  EXCL_UNLINK: 0x4000000,
  ISDIR: 0x40000000,
} as const;
const NONBLOCK = 0o4000;
const CLOEXEC = 0o2000000;
const MASK = IN.MODIFY | IN.ATTRIB | IN.CLOSE_WRITE | IN.MOVED_FROM | IN.MOVED_TO | IN.CREATE | IN.DELETE | IN.DELETE_SELF | IN.MOVE_SELF | IN.ONLYDIR | IN.DONT_FOLLOW | IN.EXCL_UNLINK;

/** What changed since the last drain: entries (`dir/name`, relative), folders whose whole subtree must be looked at again, or everything. */
export type Drained = { entries: Set<string>; subtrees: Set<string>; overflow: boolean };

export type ChangeWatch = {
  /** Watches the folder `abs` (relative name `rel`); false when the kernel refuses (out of watches). */
  add(abs: string, rel: string): boolean;
  /** Stops watching `rel` and every folder below it (it was removed or moved away). */
  forget(rel: string): void;
  drain(): Drained;
  close(): void;
};

type Libc = ReturnType<typeof loadLibc>;
let libc: Libc | undefined | null;

function loadLibc() {
  const lib = dlopen(process.platform === "linux" ? "libc.so.6" : "libc.dylib", {
    inotify_init1: { args: ["i32"], returns: "i32" },
    inotify_add_watch: { args: ["i32", "ptr", "u32"], returns: "i32" },
    inotify_rm_watch: { args: ["i32", "i32"], returns: "i32" },
    read: { args: ["i32", "ptr", "u64"], returns: "i64" },
    close: { args: ["i32"], returns: "i32" },
  });
  return lib.symbols;
}

/** A watch, or undefined where inotify is not to be had (not Linux, no instances left): callers then walk. */
export function openChangeWatch(): ChangeWatch | undefined {
  if (process.platform !== "linux") return undefined;
  if (libc === undefined) {
    try {
      libc = loadLibc();
    } catch {
      libc = null;
    }
  }
  if (!libc) return undefined;
  const c = libc;
  const fd = c.inotify_init1(NONBLOCK | CLOEXEC);
  if (fd < 0) return undefined;
  const folders = new Map<number, string>();
  const byRel = new Map<string, number>();
  const buffer = new Uint8Array(64 * 1024);
  const at = ptr(buffer);
  const view = new DataView(buffer.buffer);
  const decoder = new TextDecoder();
  let overflowed = false;

  return {
    add(abs, rel) {
      const wd = c.inotify_add_watch(fd, Buffer.from(abs + "\0"), MASK);
      if (wd < 0) return false;
      folders.set(wd, rel);
      byRel.set(rel, wd);
      return true;
    },
    forget(rel) {
      const prefix = rel === "" ? "" : rel + "/";
      for (const [path, wd] of byRel) {
        if (path !== rel && !path.startsWith(prefix)) continue;
        c.inotify_rm_watch(fd, wd);
        folders.delete(wd);
        byRel.delete(path);
      }
    },
    drain() {
      const drained: Drained = { entries: new Set(), subtrees: new Set(), overflow: overflowed };
      overflowed = false;
      for (;;) {
        const n = Number(c.read(fd, at, BigInt(buffer.length)));
        if (n <= 0) break;
        for (let off = 0; off < n; ) {
          const wd = view.getInt32(off, true);
          const mask = view.getUint32(off + 4, true);
          const len = view.getUint32(off + 12, true);
          const raw = buffer.subarray(off + 16, off + 16 + len);
          const end = raw.indexOf(0);
          const name = decoder.decode(end < 0 ? raw : raw.subarray(0, end));
          off += 16 + len;
          if (mask & IN.Q_OVERFLOW) drained.overflow = true;
          const dir = folders.get(wd);
          if (dir === undefined || mask & IN.IGNORED) continue;
          // The root itself went away or moved: only a walk can tell what is there now.
          if (mask & (IN.DELETE_SELF | IN.MOVE_SELF)) {
            if (dir === "") drained.overflow = true;
            continue;
          }
          const path = dir === "" ? name : `${dir}/${name}`;
          if (mask & IN.ISDIR && mask & (IN.CREATE | IN.DELETE | IN.MOVED_FROM | IN.MOVED_TO)) drained.subtrees.add(path);
          else drained.entries.add(path);
        }
      }
      return drained;
    },
    close() {
      c.close(fd);
      folders.clear();
      byRel.clear();
    },
  };
}
