/** Reads a process's output stream to its end, handing each piece on as text (a character split across reads kept whole). */
export async function pumpText(stream: ReadableStream<Uint8Array>, take: (chunk: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  for await (const bytes of stream) take(decoder.decode(bytes, { stream: true }));
  take(decoder.decode());
}
