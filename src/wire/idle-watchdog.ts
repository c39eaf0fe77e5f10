/**
 * Abandons a model call attempt when no byte has come from the API for `ms` — while waiting for
 * the response headers or inside the stream. The SDK's own timeout covers only the headers.
 */
export type IdleWatchdog = {
  /** Aborted when the API stayed silent too long. */
  readonly signal: AbortSignal;
  readonly fired: boolean;
  /** A fetch that starts the clock and restarts it on every chunk of the body. */
  fetch: typeof fetch;
  stop(): void;
};

export function createIdleWatchdog(ms: number): IdleWatchdog {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // refresh() re-arms the same timer: cheap enough to call on every chunk of a long stream.
  const touch = () => {
    if (timer) timer.refresh();
    else timer = setTimeout(() => controller.abort(new Error(`no data from the API for ${ms / 1000} s`)), ms);
  };
  const watched = async (...[input, init]: Parameters<typeof fetch>): Promise<Response> => {
    touch();
    const response = await fetch(input, init);
    touch();
    if (!response.body) return response;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          touch();
          out.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return {
    signal: controller.signal,
    get fired() {
      return controller.signal.aborted;
    },
    fetch: watched as typeof fetch,
    stop: () => clearTimeout(timer),
  };
}
