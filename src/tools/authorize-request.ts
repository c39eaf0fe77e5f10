import type { SandboxLevel } from "../session/sandbox-level.ts";
import type { AnyTool } from "./tool.ts";
import type { Redactor } from "./tool-host.ts";
import type { ClientFiles } from "./tool.ts";

/** A command approved for one turn only (a saved command's `allowed-tools`): `bash` and a pattern, as a rule names them. */
export type TurnAllow = { tool: string; pattern: string };

/** The gate a tool call passes before it runs: the loop asks it, the guard (src/guard/authorize.ts) answers. */
export type AuthorizeRequest = {
  tool: AnyTool;
  args: unknown;
  callId: string;
  root: string;
  /** Hides secret values in the preview a person is shown, and lets it put back those a write's markers stand for. */
  redactor?: Redactor;
  /** The editor the file tools read through: a write's preview is of the text it holds (src/acp/). */
  files?: ClientFiles;
  /** A PreToolUse hook's reason to ask the person, even where the rules (or --yolo) would allow: it can only add an ask. */
  hookAsk?: string;
  /**
   * What the saved command whose turn this is approves for it (its `allowed-tools`' `Bash(…)`
   * patterns): each lifts an ask as an "always" answer does — never the guard, a deny, or the sandbox.
   */
  allows?: readonly TurnAllow[];
  /**
   * The agent is planning (plan mode): a command runs in the read-only sandbox without asking anyone,
   * whatever approved it, and none runs where no OS sandbox can hold it read-only.
   */
  readOnly?: boolean;
  /** The child agent whose call it is (its name): the person is told who asks. */
  who?: string;
  /** Told as the person is about to be asked (the summary they are shown): a Notification hook's cue. */
  asking?: (summary: string) => void;
};
/**
 * `sandbox`: how far an allowed command may reach (what its approval earned); `byPerson`: a person
 * approved it (a key press, an allow rule), not `--yolo` or the read-only default — only that earns a
 * command the network.
 */
export type Authorization = { allowed: true; sandbox?: SandboxLevel; byPerson?: boolean } | { allowed: false; reason: string };
/** Decides whether one validated call may run (guard, plugins, rules, and asking the person). */
export type Authorize = (request: AuthorizeRequest) => Promise<Authorization>;
