import { UsageError } from "../cli/usage-error.ts";

export type PromptSource = {
  arg?: string;
  /** stdin when it is not a terminal; undefined when it is one. */
  stdin?: AsyncIterable<Uint8Array>;
  /** With a prompt argument, how long stdin may stay silent before it is ignored. */
  silentMs: number;
};

export type ReadPrompt = { prompt: string; notice?: string };

/**
 * Print mode's prompt: the argument, stdin, or both (stdin appended as context). CI runners often
 * leave stdin open and silent; with a prompt argument we wait `silentMs` for a first byte and then
 * go on without it, so `shiro -p "task"` never hangs. Once data flows it is read to the end.
 */
export async function readPrompt(src: PromptSource): Promise<ReadPrompt> {
  if (!src.stdin) return { prompt: requireText(src.arg) };
  if (src.arg === undefined) return { prompt: requireText(await readAll(src.stdin)) };

  const iterator = src.stdin[Symbol.asyncIterator]();
  const first = await Promise.race([iterator.next(), Bun.sleep(src.silentMs).then(() => "silent" as const)]);
  if (first === "silent") {
    return { prompt: requireText(src.arg), notice: `stdin stayed silent for ${src.silentMs} ms; running without it` };
  }
  const chunks: Uint8Array[] = [];
  if (!first.done) chunks.push(first.value);
  while (!first.done) {
    const next = await iterator.next();
    if (next.done) break;
    chunks.push(next.value);
  }
  const piped = decode(chunks).trimEnd();
  return { prompt: piped ? `${requireText(src.arg)}\n\n<stdin>\n${piped}\n</stdin>` : requireText(src.arg) };
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return decode(chunks);
}

const decode = (chunks: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(chunks));

function requireText(text: string | undefined): string {
  if (text === undefined || text.trim() === "") throw new UsageError("no prompt: pass it as an argument or pipe it on stdin");
  return text.trim();
}
