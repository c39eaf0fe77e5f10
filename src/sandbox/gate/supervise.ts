import { close, E } from "./gate-calls.ts";
import { errno, libc, ptr, sys } from "./gate-libc.ts";
import { openFifoLater } from "./fifo-opener.ts";
import type { Answer } from "./gate-answer.ts";
import { createGateOps } from "./gate-ops.ts";
import type { GateRules } from "./gate-rules.ts";
import { openFlags } from "./open-flags.ts";
import { syscallName, type Arch } from "./syscall-table.ts";

// seccomp's user-notification ioctls (linux/seccomp.h) and their structs' sizes.
const RECV = 0xc0502100n; // struct seccomp_notif, 80 bytes
const SEND = 0xc0182101n; // struct seccomp_notif_resp, 24 bytes
const ID_VALID = 0x40082102n;
const ADDFD = 0x40182103n; // struct seccomp_notif_addfd, 24 bytes
const SET_FLAGS = 0x40082104;
const SYNC_WAKE_UP = 1;
const ADDFD_SEND = 1 << 1;
const CONTINUE = 1; // SECCOMP_USER_NOTIF_FLAG_CONTINUE: only for a call whose arguments are all values
const POLLIN = 1;
const EINTR = 4;

/**
 * The gate's loop: answers every call the command's filter sends to `listener` until the command
 * (`pidfd`) has ended. Whatever is left of its processes after that finds no one answering: their
 * watched calls fail (ENOSYS) rather than run unchecked.
 */
export function supervise(arch: Arch, listener: number, pidfd: number, rules: GateRules): void {
  const notif = new BigUint64Array(10);
  const notifView = new DataView(notif.buffer);
  const resp = new BigUint64Array(3);
  const respView = new DataView(resp.buffer);
  const addfd = new BigUint64Array(3);
  const addfdView = new DataView(addfd.buffer);
  const idBuf = new BigUint64Array(1);
  const fds = new Int32Array([listener, POLLIN, pidfd, POLLIN]);
  // The kernel switches straight to the gate and back (Linux 6.6): a watched call costs about half as much.
  sys("ioctl", listener, SET_FLAGS, SYNC_WAKE_UP);
  const stillValid = () => libc().ioctl(listener, ID_VALID, ptr(idBuf)) === 0;
  const ops = createGateOps(rules, openFlags(arch), stillValid);
  const answer = (id: bigint, a: Answer) => {
    if ("later" in a) return openFifoLater(listener, id, a.later.pinned, a.later.flags, a.later.cloexec);
    if ("fd" in a) {
      addfd[0] = id;
      addfdView.setUint32(8, ADDFD_SEND, true);
      addfdView.setUint32(12, a.fd, true);
      addfdView.setUint32(16, 0, true);
      addfdView.setUint32(20, a.cloexec ? 0o2000000 : 0, true);
      libc().ioctl(listener, ADDFD, ptr(addfd)); // fails only when the process is gone
      close(a.fd);
      return;
    }
    resp[0] = id;
    respView.setBigInt64(8, BigInt("value" in a ? a.value : 0), true);
    respView.setInt32(16, "error" in a ? -a.error : 0, true);
    respView.setUint32(20, "continue" in a ? CONTINUE : 0, true);
    libc().ioctl(listener, SEND, ptr(resp));
  };
  for (;;) {
    fds[1] = POLLIN;
    fds[3] = POLLIN;
    if (libc().poll(ptr(fds), 2, -1) < 0) {
      if (errno() === EINTR) continue;
      return;
    }
    if (fds[3]! >>> 16) return; // the command has ended
    const listened = fds[1]! >>> 16;
    if (!(listened & POLLIN)) {
      if (listened) return; // no process holds the filter any more
      continue;
    }
    notif.fill(0n); // the kernel refuses a buffer that is not zeroed
    if (libc().ioctl(listener, RECV, ptr(notif)) !== 0) continue; // the caller went away meanwhile
    const id = notif[0]!;
    idBuf[0] = id;
    const name = syscallName(arch, notifView.getInt32(16, true));
    const args = [4, 5, 6, 7, 8, 9].map((i) => Number(notif[i]!));
    let a: Answer;
    try {
      a = name ? ops({ pid: notifView.getUint32(8, true), name, args }) : { error: E.EPERM };
    } catch {
      a = { error: E.EPERM }; // a fault in the gate refuses the call; it never lets it through
    }
    answer(id, a);
  }
}
