import type { Hooks } from "../hooks/create-hooks.ts";
import type { HookRun } from "../session/hook-run.ts";

type Source = "startup" | "resume" | "clear";

/**
 * The hooks of one session at work, as its turns meet them: SessionStart before the first prompt of
 * each session this process works on, UserPromptSubmit on every prompt, and which calls a PostToolUse
 * hook ran after (a formatter may have written, whatever the tool's kind).
 */
export type TurnHooks = {
  /** The prompt as the model gets it (the typed text, then what the hooks added), or why a hook kept it back. */
  submit(text: string, signal: AbortSignal): Promise<{ prompt: string } | { block: string }>;
  /** Another session is now the one at work (`/clear`, `/resume`). */
  switched(source: "resume" | "clear"): void;
  /** A hook ran: whether it was a PostToolUse one of the model's call `callId` is noted. */
  ran(run: Omit<HookRun, "at">): void;
  /** Whether a PostToolUse hook ran after this call (asked once per call). */
  hookedAfter(callId: string): boolean;
};

/**
 * `redact`: what a hook printed is output like a tool's (it may have read a secret) and is redacted; the
 * person's prompt is not: it goes as they wrote it.
 */
export function turnHooks(hooks: Hooks | undefined, firstTurn: boolean, redact: (text: string) => string = (text) => text): TurnHooks {
  // `-c` goes on with a session that has turns: its SessionStart is a resume.
  let started: Source | undefined = firstTurn ? "startup" : "resume";
  // What SessionStart said for the model, kept until a prompt carries it (one a UserPromptSubmit hook blocked does not).
  let startContext: string | undefined;
  const postHooked = new Set<string>();
  return {
    async submit(text, signal) {
      if (hooks && started) startContext = await hooks.sessionStart(started, signal).then((context) => context && redact(context));
      started = undefined;
      const submitted = (await hooks?.prompt(text, signal)) ?? {};
      if (submitted.block !== undefined) return { block: submitted.block };
      const prompt = [text, startContext, submitted.context && redact(submitted.context)].filter((part) => part).join("\n\n");
      startContext = undefined;
      return { prompt };
    },
    switched: (source) => void (started = source),
    ran: (run) => void (run.callId && run.event === "PostToolUse" && postHooked.add(run.callId)),
    hookedAfter: (callId) => postHooked.delete(callId),
  };
}
