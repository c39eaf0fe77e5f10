/** Test-side helpers for talking to the strict server with plain fetch and reading its SSE frames. */
export type SseFrame = { event: string; data: any };

export const userMessage = (text: string) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] });

export function postResponses(baseUrl: string, body: unknown, opts: { key?: string | null; raw?: string; signal?: AbortSignal } = {}): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? "test-key"}`;
  return fetch(`${baseUrl}/responses`, { method: "POST", headers, body: opts.raw ?? JSON.stringify(body), signal: opts.signal });
}

/** Splits an SSE body into frames; throws on a frame that is not `event:` + `data:` with matching type. */
export function parseSse(text: string): SseFrame[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const match = /^event: (.+)\ndata: (.+)$/.exec(chunk);
      if (!match) throw new Error(`malformed SSE frame: ${JSON.stringify(chunk)}`);
      const data = JSON.parse(match[2]!);
      if (data.type !== match[1]) throw new Error(`event name ${match[1]} differs from data.type ${data.type}`);
      return { event: match[1]!, data };
    });
}

export async function streamFrames(baseUrl: string, body: Record<string, unknown>): Promise<SseFrame[]> {
  const res = await postResponses(baseUrl, { stream: true, ...body });
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${await res.text()}`);
  return parseSse(await res.text());
}

/** Collapses runs of the same event type to "type×n" so an order can be asserted exactly and readably. */
export function eventShape(frames: SseFrame[]): string[] {
  const shape: string[] = [];
  let last = "";
  let count = 0;
  const flush = () => last && shape.push(count > 1 ? `${last}×n` : last);
  for (const { event } of frames) {
    if (event === last) count++;
    else {
      flush();
      last = event;
      count = 1;
    }
  }
  flush();
  return shape;
}

/** A JSON response body, untyped (tests assert its shape). */
export const jsonOf = async (res: Response): Promise<any> => res.json();
