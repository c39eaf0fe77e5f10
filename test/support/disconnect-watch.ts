/**
 * A loopback pass-through in front of a server that counts requests whose client hung up before the
 * response finished: proof that a client really cancelled a stream rather than just ignoring it.
 */
export type DisconnectWatch = { url: string; readonly disconnects: number; stop(): Promise<void> };

export function watchDisconnects(targetUrl: string): DisconnectWatch {
  let disconnects = 0;
  const target = new URL(targetUrl);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      url.host = target.host;
      let finished = false;
      req.signal.addEventListener("abort", () => void (finished || disconnects++));
      const upstream = await fetch(url, { method: req.method, headers: req.headers, body: await req.arrayBuffer(), signal: req.signal });
      const body = upstream.body?.pipeThrough(new TransformStream({ flush: () => void (finished = true) }));
      return new Response(body, { status: upstream.status, headers: upstream.headers });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}${target.pathname}`,
    get disconnects() {
      return disconnects;
    },
    stop: () => server.stop(true),
  };
}
