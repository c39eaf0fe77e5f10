import { gateFilter } from "./bpf-program.ts";
import { errno, libc, ptr, sys } from "./gate-libc.ts";
import { currentArch } from "./syscall-table.ts";

/** The hidden subcommand: `shiro __gate-exec --<level> [--offline] -- <program> <args…>`, started by the Landlock launcher. */
export const GATE_EXEC = "__gate-exec";

const SET_MODE_FILTER = 1;
const NEW_LISTENER = 1 << 3;
const WAIT_KILLABLE_RECV = 1 << 5; // Linux 5.19: once the gate has a call, only a fatal signal interrupts it
const PR_SET_NO_NEW_PRIVS = 38;
const EINVAL = 22;
// The handover with the launcher: fd 3 carries the listener's number to it, fd 4 brings its go-ahead.
const TO_GATE = 3;
const FROM_GATE = 4;

/**
 * The command's side of the gate: installs the seccomp filter (its listener goes to the launcher,
 * which takes it out of this process with pidfd_getfd), waits for the go-ahead, closes every copy
 * of the listener and becomes the command — which so starts with every watched call answered by the
 * launcher. Any failure ends it with exit 126 and one line, before the command runs.
 */
export function gateExec(args: readonly string[], env: Readonly<Record<string, string>>): never {
  try {
    const arch = currentArch();
    if (!arch) throw new Error(`no seccomp filter for ${process.arch}`);
    const end = args.indexOf("--");
    const [options, argv] = [args.slice(0, end), args.slice(end + 1)];
    if (end < 0 || argv.length === 0) throw new Error("no command");
    const c = libc();
    const program = gateFilter(arch, { level: options.includes("--read-only") ? "read-only" : "workspace-write", offline: options.includes("--offline") });
    const fprog = new BigUint64Array([BigInt(program.length / 8), BigInt(ptr(program))]);
    if (c.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n) !== 0) throw new Error("prctl(PR_SET_NO_NEW_PRIVS) failed");
    let listener = sys("seccomp", SET_MODE_FILTER, NEW_LISTENER | WAIT_KILLABLE_RECV, ptr(fprog));
    if (listener < 0 && errno() === EINVAL) listener = sys("seccomp", SET_MODE_FILTER, NEW_LISTENER, ptr(fprog));
    if (listener < 0) throw new Error(`seccomp failed (errno ${errno()})`);
    const word = new Int32Array([listener]);
    if (c.write(TO_GATE, ptr(word), 4) !== 4) throw new Error("the launcher is gone");
    if (c.read(FROM_GATE, ptr(word), 4) !== 4) throw new Error("the launcher did not take the filter");
    for (const fd of [listener, TO_GATE, FROM_GATE]) c.close(fd);
    execve(argv, env);
  } catch (err) {
    process.stderr.write(`shiro: the sandbox could not start the command: ${(err as Error).message.split("\n")[0]}\n`);
    process.exit(126);
  }
}

/** Replaces this process with `argv` (absolute program path first), in `env`; returns only on failure. */
export function execve(argv: readonly string[], env: Readonly<Record<string, string>>): never {
  const keep: Buffer[] = [];
  const cArray = (strings: readonly string[]) => {
    const pointers = new BigUint64Array(strings.length + 1);
    strings.forEach((s, i) => {
      const bytes = Buffer.from(`${s}\0`);
      keep.push(bytes);
      pointers[i] = BigInt(ptr(bytes));
    });
    return pointers;
  };
  const args = cArray(argv);
  const envp = cArray(Object.entries(env).map(([k, v]) => `${k}=${v}`));
  libc().execve(ptr(keep[0]!), ptr(args), ptr(envp));
  throw new Error(`execve ${argv[0]} failed`);
}
