/**
 * A named pipe's open waits for its other end, which may be the very process the gate must answer
 * next: the gate's loop cannot wait. Such an open is finished on a worker thread of the gate — the
 * pipe pinned by an O_PATH handle, reopened through it with the process's own flags, the fd placed
 * in the process (SECCOMP_IOCTL_NOTIF_ADDFD) — while the loop goes on. One thread an open (two ends of
 * one pipe may both be waiting), ending once done; it needs no message back: it shares the gate's fds
 * and closes what it was handed.
 */
const WORKER = `
import { dlopen, ptr, toArrayBuffer } from "bun:ffi";
const c = dlopen("libc.so.6", {
  openat: { args: ["i32", "ptr", "i32", "u32"], returns: "i32" },
  ioctl: { args: ["i32", "u64", "ptr"], returns: "i32" },
  close: { args: ["i32"], returns: "i32" },
  __errno_location: { args: [], returns: "ptr" },
}).symbols;
const ADDFD = 0x40182103n, SEND = 0xc0182101n;
self.onmessage = ({ data: m }) => {
  const path = Buffer.from("/proc/self/fd/" + m.pinned + "\\0");
  const fd = c.openat(-100, ptr(path), m.flags, 0);
  const errno = fd < 0 ? new Int32Array(toArrayBuffer(c.__errno_location(), 0, 4))[0] : 0;
  c.close(m.pinned);
  if (fd >= 0) {
    const addfd = new BigUint64Array(3);
    addfd[0] = BigInt(m.id);
    const v = new DataView(addfd.buffer);
    v.setUint32(8, 2, true); v.setUint32(12, fd, true); v.setUint32(16, 0, true); v.setUint32(20, m.cloexec, true);
    c.ioctl(m.listener, ADDFD, ptr(addfd));
    c.close(fd);
  } else {
    const resp = new BigUint64Array([BigInt(m.id), 0n, 0n]);
    new DataView(resp.buffer).setInt32(16, -errno, true);
    c.ioctl(m.listener, SEND, ptr(resp));
  }
  self.close();
};
`;

let source: string | undefined;

/** Finishes call `id`'s open of the pipe `pinned` (an O_PATH fd, closed after) with `flags`, off the gate's loop. */
export function openFifoLater(listener: number, id: bigint, pinned: number, flags: number, cloexec: boolean): void {
  source ??= URL.createObjectURL(new Blob([WORKER], { type: "application/javascript" }));
  new Worker(source).postMessage({ listener, id: String(id), pinned, flags, cloexec: cloexec ? 0o2000000 : 0 });
}
