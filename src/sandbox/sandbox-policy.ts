import type { SandboxLevel } from "./sandbox-mode.ts";

/** What one sandboxed command may see and touch; the bwrap argv and the macOS profile are built from it. */
export type SandboxPolicy = {
  /** The project folder: writable at `workspace-write`, read-only otherwise. */
  root: string;
  level: SandboxLevel;
  network: boolean;
  /** Existing secret files: neither readable nor writable. */
  maskFiles: readonly string[];
  /** Secret folders (`~/.ssh`, `~/.aws`, shiro's own home): hidden behind an empty read-only folder. */
  maskDirs: readonly string[];
  /** Folders under /tmp that must stay visible (the project, the home) although /tmp is private. */
  keep: readonly string[];
  /** Parts of a writable project that stay read-only: git's hooks and config, which run code later, outside any sandbox. */
  readOnly: readonly string[];
};
