import type { SandboxLevel } from "./sandbox-mode.ts";

/** What one sandboxed command may see and touch; the bwrap argv and the macOS profile are built from it. */
export type SandboxPolicy = {
  /** The project folder: writable at `workspace-write`, read-only otherwise. */
  root: string;
  level: SandboxLevel;
  network: boolean;
  /** Offline in the session's network namespace, which the command enters before bwrap starts (session-network.ts), not one of its own. */
  sharedNetwork?: boolean;
  /** Folders shown as an empty private folder (the home, the project's parent, /run when offline): the person's files stay out of sight. */
  hide: readonly string[];
  /** Folders shown read-only although they lie in a hidden one: the documented tool folders, `sandbox.readable`. */
  readable: readonly string[];
  /** More folders a command may write (`--add-dir`, `sandbox.writable`), like the project: read-only at `read-only`. */
  writable: readonly string[];
  /** Existing secret files: neither readable nor writable. */
  maskFiles: readonly string[];
  /** Secret folders (`~/.ssh`, shiro's own home): hidden behind an empty read-only folder. */
  maskDirs: readonly string[];
  /** Parts of a writable project that stay read-only: what git runs later, outside any sandbox. */
  readOnly: readonly string[];
  /** Names at a writable project's top that run later, there or not: none may be made (the gate refuses; elsewhere one made is removed after). */
  plantable?: readonly string[];
  /** Variables set inside (the person's git identity, which the hidden home's .gitconfig no longer gives). */
  setenv: Readonly<Record<string, string>>;
  /** The person's home when it is hidden: under Landlock, which cannot show it empty, a command gets a home of its own instead. */
  home?: string;
  /** The most processes the command may have at once (RLIMIT_NPROC; a pids cgroup where that does not bind). */
  maxProcs: number;
  /** Where it starts, when not in the project (a program the person configured with its own `cwd`). */
  cwd?: string;
};
