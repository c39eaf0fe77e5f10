import { UsageError } from "../exit/usage-error.ts";
import { binaryWords, decodeText, escapedWords } from "../text/decode-text.ts";

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
  const piped = src.stdin ? pipedText(await readToEnd(src.stdin, src), arg !== undefined, src.warn) : "";
  if (arg === undefined) return { prompt: requireText(piped) };
  return piped ? { prompt: arg, context: piped } : { prompt: arg };
}

/**
 * stdin as text for the model. Binary stdin (`cat logo.png | shiro -p "…"`) is never sent: the model
 * could only read it as noise. After a prompt argument the run goes on without it; as the prompt it
 * leaves nothing to run, which is the command line's mistake.
 */
function pipedText(bytes: Uint8Array, prompted: boolean, warn: (line: string) => void): string {
  const decoded = decodeText(bytes);
  if (decoded.binary) {
    const what = binaryWords("stdin", decoded.bytes);
    if (!prompted) throw new UsageError(`${what}: nothing was sent; pass the prompt as an argument (text in another encoding: convert it with iconv -t UTF-8 first)`);
    warn(`${what}: not sent; the run goes on with the prompt alone`);
    return "";
  }
  if (decoded.escaped) warn(escapedWords("stdin", decoded.escaped));
  return decoded.text.trimEnd();
}

async function readToEnd(stream: AsyncIterable<Uint8Array>, src: PromptSource): Promise<Uint8Array> {
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
  return Buffer.concat(chunks);
}

// Blank lines before the first and whitespace after the last go; a first line's own indent stays (` /name` is text, not a command).
function requireText(text: string | undefined): string {
  if (text === undefined || text.trim() === "") throw new UsageError("no prompt: pass it as an argument or pipe it on stdin");
  return text.replace(/^\s*\n/, "").trimEnd();
}
