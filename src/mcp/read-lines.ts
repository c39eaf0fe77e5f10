/**
 * Calls `onLine` with each line of a byte stream (without its `\n` or `\r\n`), the last one even when
 * unterminated. A line longer than `maxChars` is handed over cut there, with `tooLong` — a server
 * that never ends a line must not fill memory.
 */
export async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string, tooLong: boolean) => void, maxChars: number): Promise<void> {
  const decoder = new TextDecoder();
  let parts: string[] = [];
  let size = 0;
  const emit = (tail: string) => {
    const line = (parts.join("") + tail).replace(/\r$/, "");
    parts = [];
    size = 0;
    onLine(line.slice(0, maxChars), line.length > maxChars);
  };
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    let from = 0;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", from)) {
      emit(text.slice(from, at));
      from = at + 1;
    }
    parts.push(text.slice(from));
    size += text.length - from;
    if (size > maxChars) return emit("");
  }
  const rest = decoder.decode();
  if (size > 0 || rest) emit(rest);
}
