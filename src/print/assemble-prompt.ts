import { attachMentions } from "../context/attach-mentions.ts";
import { charsFromTokens } from "../context/estimate.ts";
import { cutWords, fitInput } from "../context/fit-input.ts";
import type { InputImage } from "../session/messages.ts";
import type { PrintInput } from "./read-prompt.ts";

export type AssembleOptions = {
  root: string;
  /** The context threshold in force for this session, in tokens. */
  threshold: number;
  warn: (line: string) => void;
  /** The prompt is a saved command's, its `@path` files attached already (src/commands/). */
  attached?: boolean;
};

const withStdin = (typed: string, piped: string) => `${typed}\n\n<stdin>\n${piped}\n</stdin>`;

/** The run's first message: its text, and the images its `@path` mentions attach. */
export type Assembled = { text: string; images: InputImage[] };

/**
 * The run's first message: the typed prompt with the files its `@path` mentions attach, then stdin
 * cut to what fits. A piped log's `@` names no file to send, so only the typed prompt's mentions
 * attach; stdin that is the prompt counts as typed unless it is too large to send whole (a log).
 */
export async function assemblePrompt(input: PrintInput, opts: AssembleOptions): Promise<Assembled> {
  // Half the threshold: the other half holds the instructions, the tool definitions and the run's own
  // calls and results, and covers chars/4 being rough, so stdin alone never makes the first request compact.
  const room = charsFromTokens(Math.floor(opts.threshold / 2));
  if (input.context === undefined) return input.prompt.length > room ? { text: fit(input.prompt, room, opts), images: [] } : attach(input.prompt, opts);
  const typed = await attach(input.prompt, opts);
  return { ...typed, text: withStdin(typed.text, fit(input.context, room - withStdin(typed.text, "").length, opts)) };
}

function fit(text: string, maxChars: number, opts: AssembleOptions): string {
  const fitted = fitInput(text, maxChars, "stdin");
  if (fitted.cut) opts.warn(cutWords("stdin is too large for the context window", fitted.cut));
  return fitted.text;
}

async function attach(prompt: string, opts: AssembleOptions): Promise<Assembled> {
  if (opts.attached) return { text: prompt, images: [] };
  const { text, images, refused, missing, notices } = await attachMentions(prompt, opts.root);
  for (const r of refused) opts.warn(`not attached: ${r}`);
  for (const n of notices) opts.warn(n);
  if (missing.length) opts.warn(`not a file, sent as text: ${missing.join(", ")}`);
  return { text, images };
}
