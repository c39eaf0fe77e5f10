import { UsageError } from "../cli/usage-error.ts";

export type PromptSource = {
  arg?: string;
  /** stdin when it is a pipe or a file; undefined when it is a terminal, which print mode never reads. */
  stdin?: AsyncIterable<Uint8Array>;
  /** After this long with nothing arriving, one warning says shiro is waiting for stdin. */
  silentMs: number;
  warn: (line: string) => void;
};

/** What was typed (the argument, else stdin) and, after an argument, stdin as context. */
export type PrintInput = { prompt: string; context?: string };

/**
 * Print mode's input. stdin is read to its end however long that takes: `make 2>&1 | shiro -p …`
 * may be silent for minutes before the error that matters. A CI runner that leaves stdin open
 * would wait forever, so after `silentMs` of silence one warning says how to run without it.
 */
export async function readPrompt(src: PromptSource): Promise<PrintInput> {
  const arg = src.arg === undefined ? undefined : requireText(src.arg);
  const piped = src.stdin ? (await readToEnd(src.stdin, src)).trimEnd() : "";
  if (arg === undefined) return { prompt: requireText(piped) };
  return piped ? { prompt: arg, context: piped } : { prompt: arg };
}

async function readToEnd(stream: AsyncIterable<Uint8Array>, src: PromptSource): Promise<string> {
  const chunks: Uint8Array[] = [];
  let warned = false;
  const waiting = () => {
    warned = true;
    src.warn(`waiting for stdin (nothing has arrived for ${src.silentMs / 1000} s); to run without it, pass < /dev/null`);
  };
  const timer = setTimeout(waiting, src.silentMs);
  try {
    for await (const chunk of stream) {
      chunks.push(chunk);
      if (!warned) timer.refresh();
    }
  } catch (e) {
    // `shiro -p "…" < some-dir`: a mistake in the command line, not in shiro.
    throw new UsageError(`cannot read stdin: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function requireText(text: string | undefined): string {
  if (text === undefined || text.trim() === "") throw new UsageError("no prompt: pass it as an argument or pipe it on stdin");
  return text.trim();
}
