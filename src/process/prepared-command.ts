/** A command made ready to run: its argv, and the check of its outcome once it has ended. */
export type PreparedCommand = {
  argv: string[];
  /**
   * What the command left that the model must hear about (a secret file it made, a repository that would run
   * code later, files gone with its private folders); `privateWrites`, what it listed on fd 5.
   */
  check(privateWrites?: string): { notes: string[]; denied: boolean };
  /** The command's shell lists on fd 5, once the command has ended, the files it left in folders private to it. */
  listsPrivateWrites?: boolean;
  /** Bytes fed to the program on fd 4 (bubblewrap's `--args`: its arguments, kept out of /proc/<pid>/cmdline). */
  fd4?: Uint8Array;
  /** Open files handed to the program from fd 6 on (the session's network namespace it joins, session-network.ts). */
  fds?: readonly number[];
  /** Removes what the sandbox made for the command alone (Landlock's folders of its own), for a program whose outcome nobody checks (an MCP server). */
  tidy?: () => void;
  /** A pids cgroup the command runs in (its procs file), and its removal once the command is over. */
  group?: { procs: string; release(): Promise<void> };
  /** A line for the result the model reads (e.g. that it ran read-only). */
  note?: string;
  /** It runs in a sandbox without network: a failure that reads like one for want of network gets a line saying so. */
  offline?: boolean;
};

/**
 * A program the person chose to run in the sandbox (an MCP server with `"sandbox"`): the files it runs
 * (its program as found on its PATH, the script it is given), shown read-only where they are installed
 * if the sandbox would hide them, and the folder it runs in.
 */
export type ProgramReach = { programs: readonly string[]; cwd: string };

/** Where a command runs (an OS sandbox, or none); the bash tool hands it the shell's argv and the command as written. */
export type CommandSandbox = {
  prepare(argv: string[], root: string, command: string, reach?: ProgramReach): PreparedCommand;
  /**
   * A background job is about to start: from now on the session's offline commands share one network
   * namespace, so later ones reach what it serves on 127.0.0.1. Resolves to why they cannot, if not.
   */
  shareNetwork?(): Promise<string | undefined>;
};
