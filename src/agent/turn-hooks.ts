import type { SessionHooks } from "../hooks/create-hooks.ts";

type Source = "startup" | "resume" | "clear";

/**
 * The hooks of one session at work, as its turns meet them: SessionStart before its first prompt
 * (`source`: how the process came to work on it), UserPromptSubmit on every prompt.
 */
export type TurnHooks = {
  /** The prompt as the model gets it (the typed text, then what the hooks added), or why a hook kept it back. */
  submit(text: string, signal: AbortSignal): Promise<{ prompt: string } | { block: string }>;
};

/**
 * `redact`: what a hook printed is output like a tool's (it may have read a secret) and is redacted; the
 * person's prompt is not: it goes as they wrote it.
 */
export function turnHooks(hooks: SessionHooks | undefined, source: Source, redact: (text: string) => string = (text) => text): TurnHooks {
  let started: Source | undefined = source;
  // What SessionStart said for the model, kept until a prompt carries it (one a UserPromptSubmit hook blocked does not).
  let startContext: string | undefined;
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
  };
}
