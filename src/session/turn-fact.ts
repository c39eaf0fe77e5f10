import type { AssistantMessage, ChildRef, InputImage, Usage } from "./messages.ts";
import type { SandboxLevel } from "./sandbox-level.ts";

/**
 * A durable fact of a turn, handed to the runtime the moment it is known — before the side effect it
 * announces (a tool run) — so the session log holds it even if the process dies right after. The
 * history the loop reads grows from these; the loop never changes it itself.
 */
export type TurnFact =
  /** How the model call in flight ended; `message` joins the history (for incomplete/aborted, what streamed). */
  | { type: "answer"; status: "completed" | "incomplete" | "aborted" | "error"; message?: AssistantMessage; error?: string; usage?: Usage }
  /** A tool call was judged: allowed (at this sandbox level) or denied. */
  | { type: "verdict"; callId: string; allowed: boolean; sandbox?: SandboxLevel; reason?: string }
  /** The tool is about to run. */
  | { type: "tool"; callId: string }
  | { type: "result"; callId: string; output: string; isError: boolean; denied: boolean; images?: InputImage[]; child?: ChildRef };

/** Where the loop commits its facts; the runtime writes them to the log and the history grows. */
export type Commit = (fact: TurnFact) => void;
