import type { z } from "zod";
import type { ChildRef, InputImage } from "../session/messages.ts";
import type { Redaction } from "../text/redaction-marker.ts";
import type { CommandSandbox } from "../process/prepared-command.ts";
import type { JobRegistry } from "../process/job-registry.ts";

/** What a call touches, for the permission rules and the guard: raw paths as given, or a command. */
export type CallSubject = {
  paths?: string[];
  command?: string;
  /** Neither files nor a command (an MCP tool's call): its arguments in one line, judged by the tool's own rules alone. */
  action?: string;
};

/** `read` tools are allowed by default; `write` and `exec` ask; `meta` (memory, todos, skills) never gate. */
export type ToolKind = "read" | "write" | "exec" | "meta";

/**
 * An editor that holds the files (the Agent Client Protocol's `fs/*`): a read sees its unsaved buffer,
 * a write lands in it. Asked only once a path has passed every check the disk would have; absent, the disk.
 */
export type ClientFiles = {
  /** The editor's text of the file at this real path. */
  read?(path: string): Promise<string>;
  /** Hands the editor the whole new text of the file at this real path. */
  write?(path: string, text: string): Promise<void>;
};

export type ToolContext = {
  /** The project root; file tools resolve every path inside it. */
  root: string;
  /** Aborts the whole turn (Esc). */
  signal: AbortSignal;
  /** Stops only the running command, keeping the turn (Ctrl-C during `bash`). */
  interrupt?: AbortSignal;
  /** The environment a command runs with: shiro's own without its secrets (tool-env.ts). */
  env: Readonly<Record<string, string>>;
  /** Streams partial output (e.g. from `bash`) to whoever renders the run. */
  onOutput?: (chunk: string) => void;
  /** Events of work the call started (a child agent's), passed up the run's events as they come. */
  relay?: (event: { type: string }) => void;
  /** The call's id, as the events it relays name it. */
  callId?: string;
  /** Set for `exec` tools by the runtime; without it a command runs as it is (unit tests). */
  sandbox?: CommandSandbox;
  /** The session's background jobs (bash with `background`, bash_output, bash_kill); without it none can start. */
  jobs?: JobRegistry;
  /**
   * Whether a direct read of this file would be denied (a secret, a deny rule): a folder-wide read skips
   * it. With `asked` (the path the call named), the path is where a read really lands, once its folder
   * is open, judged as it stands — and refused where only a person opens it unless `asked` named such a place.
   */
  readDenied?: (absolutePath: string, asked?: string) => boolean;
  /**
   * Globs of the files no read may open by default (secrets), matched in any letter case against each
   * file and folder name (those with a `/` against the path): a search leaves them unopened, and with
   * them the cost of judging every file by `readDenied` before reading it.
   */
  secretGlobs?: readonly string[];
  /** How far a long call has got (`3/10: indexing`), shown on the status line while it runs. */
  progress?: (text: string) => void;
  /** Tells the person running shiro something about how a call ran (not the model), e.g. a slower fallback. */
  notice?: (text: string) => void;
  /**
   * Why a write landing on this real path is refused whatever the rules say (a secret file), or undefined.
   * The file tools ask it where a write really lands, once its folder is open: the path judged before the
   * call may have been redirected by a symlink since.
   */
  writeRefused?: (absolutePath: string) => string | undefined;
  /**
   * The secret values in a text as the redactor finds them (the host's `redactor.find`): the write tools
   * read a file as the model was shown it, markers and all, and put back the bytes a marker stood for.
   * Without it no value is known, and any marker in written content is refused.
   */
  redactions?: (text: string) => Redaction[];
  /** The editor the file tools read and write through, when shiro runs inside one (src/acp/). */
  files?: ClientFiles;
};

/** A preview has no side effects, so it runs no process and needs no environment. */
export type PreviewContext = Pick<ToolContext, "root" | "signal" | "redactions" | "files">;

export type ToolOutput = {
  /** What the model reads. */
  output: string;
  isError?: boolean;
  /** What a person sees instead, when it differs (e.g. a unified diff for a write). */
  display?: string;
  /** The call ran but part of what it did was refused after the fact (a secret file it made); counts as a denial. */
  denied?: boolean;
  /** Images for the model beside `output` (an MCP tool's), which names each in a line. */
  images?: InputImage[];
  /** The session of a child agent the call ran (its log is referenced, not copied). */
  child?: ChildRef;
};

export type Tool<S extends z.ZodType = z.ZodType> = {
  name: string;
  /** Written for the model. */
  description: string;
  schema: S;
  /**
   * A JSON Schema sent as it is, non-strict, instead of one made from `schema` (an MCP server's); the
   * arguments then reach `schema` as the model wrote them, nulls included.
   */
  parameters?: Record<string, unknown>;
  kind: ToolKind;
  /**
   * It hands work to a child agent: calls of it beside each other in one response run at once, and
   * what the child changed is recorded in the parent's turn, as a write's is.
   */
  delegates?: true;
  subject(args: z.infer<S>): CallSubject;
  /** A preview for an approval prompt (e.g. the diff a write would make), computed without side effects. */
  preview?(args: z.infer<S>, ctx: PreviewContext): Promise<string | undefined>;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
};

// Erases the schema type so tools of different shapes fit in one list.
export type AnyTool = Tool<any>;

export const defineTool = <S extends z.ZodType>(tool: Tool<S>): AnyTool => tool;

/** An expected failure with a message written for the model (it becomes an error result, not a crash). */
export class ToolError extends Error {
  override name = "ToolError";
}
