/** One server-sent event: its data (lines joined by `\n`), and the fields that steer reconnection. */
export type SseEvent = { event?: string; data: string; id?: string; retry?: number };

/**
 * The events of a `text/event-stream` body, parsed as the HTML standard says: lines end in CR, LF or
 * CRLF, a blank line ends an event, `:` starts a comment, one space after the colon is dropped. Blocks
 * with no data are yielded too (a priming event carries only an `id` and a `retry`); an unfinished
 * event at the end of the stream is dropped. Stopping early cancels the body.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event: SseEvent = { data: "" };
  let fields = 0;
  let data: string[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let from = 0;
      for (;;) {
        const lf = buffer.indexOf("\n", from);
        const cr = buffer.indexOf("\r", from);
        const at = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (at === -1 || (at === cr && at === buffer.length - 1)) break;
        const line = buffer.slice(from, at);
        from = at + (buffer.startsWith("\r\n", at) ? 2 : 1);
        if (line === "") {
          if (fields) yield { ...event, data: data.join("\n") };
          event = { data: "" };
          data = [];
          fields = 0;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? "" : line.slice(colon + (line[colon + 1] === " " ? 2 : 1));
        fields++;
        if (name === "data") data.push(text);
        else if (name === "event") event.event = text;
        else if (name === "id" && !text.includes("\0")) event.id = text;
        else if (name === "retry" && /^\d+$/.test(text)) event.retry = Number(text);
      }
      buffer = buffer.slice(from);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
