import { findTrusted } from "./trusted-program.ts";

/**
 * The watcher a command runs beside (POSIX sh). fd 3 is its lifeline: a socket from shiro that shiro
 * never writes to until the command has ended. A byte means "done": the watcher leaves, and redirected
 * background jobs keep running. EOF without a byte means shiro died (kill -9 included): the watcher
 * SIGKILLs its whole process group — the command and everything it started, which a parent-death
 * signal on the first process alone would miss. It ignores SIGTERM so that, after shiro's own
 * SIGTERM to the group, it is still there to finish the kill should shiro exit before its SIGKILL.
 * Started before the exec, it is no job of the command's shell, so a `wait` there does not wait for it.
 * The command itself gets neither fd 3 nor a stdin (it is /dev/null, as the spawn gives it).
 */
const WATCHER = `( trap '' TERM; read -r _ <&3 || kill -s KILL 0 ) >/dev/null 2>&1 &
exec "$@" 3<&-`;

/** Windows has neither /bin/sh nor process groups to kill: commands run there without a watcher. */
export const LIFELINE = process.platform !== "win32";

let bash: string | undefined;
/**
 * The shell, by absolute path from the system folders (found once): a `bash` planted on PATH, in a
 * project folder, is never the shell shiro starts. Where none is there (a system keeping bash
 * elsewhere), the name alone, as before.
 */
const shell = () => (bash ??= ((found) => (found.ok ? found.program.path : "bash"))(findTrusted("bash")));

/**
 * How the bash tool runs a command, before any sandbox wraps it: not a login shell. shiro's own PATH
 * (the person's, with their toolchains) is what a command needs; a login profile would print into every
 * result (`pyenv: cannot rehash`, a profile the sandbox cannot read) and /etc/profile resets PATH.
 */
export const shellArgv = (command: string): string[] => [shell(), "-c", command];

/**
 * The argv the bash tool spawns: `argv` (the shell, perhaps in its sandbox) behind the lifeline watcher
 * unless told not to. With `procs` (a pids cgroup's procs file), the watcher joins that group before
 * anything starts, so every process of the command counts; if it cannot, nothing runs.
 */
export function commandArgv(argv: readonly string[], lifeline = LIFELINE, procs?: string): string[] {
  if (!lifeline) return [...argv];
  if (!procs) return ["/bin/sh", "-c", WATCHER, "shiro-lifeline", ...argv];
  return ["/bin/sh", "-c", `echo $$ > "$1" || exit 125; shift\n${WATCHER}`, "shiro-lifeline", procs, ...argv];
}
