import type { Grant } from "../session/sandbox-level.ts";
import type { CommandSandbox } from "../process/prepared-command.ts";
import type { JobRegistry } from "../process/job-registry.ts";
import type { Redaction } from "../text/redaction-marker.ts";
import type { ClientFiles } from "./tool.ts";

export type { Redaction };

/** Redacts a text that arrives in chunks: `push` returns what is safe to show now, `flush` the rest. */
export type RedactStream = { push(chunk: string): string; flush(): string };

/** Hides secret values in a tool's output (secrets/redact.ts makes one). */
export type Redactor = {
  text(s: string): string;
  stream(): RedactStream;
  /**
   * What `text` replaces in `s`, in order and not overlapping: each value's place, the value, and the
   * marker shown for it (`text(s)` is `s` with each of them swapped for its marker). The write tools use
   * it to put back the bytes a marker stood for when the model writes a file back (restore-markers.ts).
   */
  find(s: string): Redaction[];
  /** Takes in values that changed since (a secret file edited); run-tool-call calls it before and after each call. */
  refresh?(): void;
};

/**
 * What every tool call runs with, decided once by the runtime and passed whole from it through the
 * loop to each call: one object, one definition. Each call's ToolContext is made from it.
 */
export type ToolHost = {
  /** A fresh signal per call that stops only that call (the REPL's Ctrl-C during `bash`). */
  interruptSignal?: () => AbortSignal;
  /** Where an `exec` tool's command runs (the OS sandbox), at the level its authorization gave. */
  sandbox?: (grant: Grant) => Promise<CommandSandbox>;
  /** Whether `tool` reading `path` directly would be denied (a secret, a deny rule); what a folder-wide read skips. */
  readDenied?: (tool: string, path: string, root: string, asked?: string) => boolean;
  /** Name globs of the files a search leaves unopened (secrets), handed to every tool as is. */
  secretGlobs?: readonly string[];
  /** Why `tool` writing at the real path `path` is refused whatever the rules say, asked where a write lands. */
  writeRefused?: (tool: string, path: string, root: string) => string | undefined;
  /** The environment tool processes get: shiro's own without its secrets. */
  env: Readonly<Record<string, string>>;
  /** Hides secret values in every output, streamed or final, before the model, a person or a file sees it. */
  redactor: Redactor;
  /** The editor the file tools read and write through (an ACP client's `fs/*`); the disk when absent. */
  files?: ClientFiles;
  /** The session's background jobs, shared by its agents and ended with it. */
  jobs?: JobRegistry;
};
