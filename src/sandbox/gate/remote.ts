import { errno, ptr, sys } from "./gate-libc.ts";

/**
 * Reads a sandboxed process's memory (process_vm_readv: its parent may, and nothing is opened): the
 * path a call names, or a struct it points to. The gate acts on this copy only, never on what the
 * process's memory holds by the time the call runs, so a thread rewriting it afterwards changes nothing.
 */
const PAGE = 4096;
const MAX_PATH = 4096;
const buf = new Uint8Array(MAX_PATH + 1);
const local = new BigUint64Array(2);
const remote = new BigUint64Array(2);

function readInto(pid: number, addr: number, offset: number, length: number): number {
  local[0] = BigInt(ptr(buf) + offset);
  local[1] = BigInt(length);
  remote[0] = BigInt(addr);
  remote[1] = BigInt(length);
  const n = sys("process_vm_readv", pid, ptr(local), 1, ptr(remote), 1, 0);
  return n < 0 ? -errno() : n;
}

/** A NUL-terminated string at `addr` (latin1), read a page at a time; a negative errno when unreadable or too long. */
export function readString(pid: number, addr: number): string | number {
  if (addr === 0) return -14; // EFAULT, as the kernel answers a null path
  let offset = 0;
  let chunk = PAGE - (addr % PAGE);
  while (offset < MAX_PATH) {
    const want = Math.min(chunk, MAX_PATH - offset);
    const n = readInto(pid, addr + offset, offset, want);
    if (n <= 0) return n < 0 ? n : -14;
    const end = buf.indexOf(0, offset);
    if (end >= 0 && end < offset + n) return Buffer.from(buf.buffer, 0, end).toString("latin1");
    offset += n;
    chunk = PAGE;
  }
  return -36; // ENAMETOOLONG
}

/** `length` bytes at `addr` (a struct the call points to), or a negative errno. */
export function readBytes(pid: number, addr: number, length: number): Uint8Array | number {
  const n = readInto(pid, addr, 0, length);
  if (n < 0) return n;
  return n === length ? buf.slice(0, length) : -14;
}
