import { urlProblem } from "./check-url.ts";
import { LIMITS } from "./limits.ts";
import { RegistryRefusal } from "./refusal.ts";
import { withoutRuntimeHint } from "../text/runtime-hint.ts";

export type FetchOptions = {
  timeoutMs?: number;
  /** TLS options passed to Bun's fetch, e.g. `{ ca }` to trust a test server's certificate. */
  tls?: { ca?: string | string[] };
};

export type Fetched = { bytes: Uint8Array; finalUrl: string };

/**
 * GETs an https URL, following at most a few redirects by hand so each hop is re-checked, and reads at most
 * `maxBytes` from the stream whatever `content-length` claims. `subject` names the entry in any refusal.
 */
export async function boundedFetch(url: string, maxBytes: number, subject: string, options: FetchOptions = {}): Promise<Fetched> {
  const timeoutMs = options.timeoutMs ?? LIMITS.fetchTimeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  // The refusal already names a URL it was given; a redirect's target is news.
  const where = (at: string) => (subject.includes(at) ? "the server" : at);
  try {
    for (let hop = 0; hop <= LIMITS.redirects; hop++) {
      const badUrl = urlProblem(current);
      if (badUrl) throw new RegistryRefusal(subject, hop === 0 ? badUrl : `redirected to ${current}: ${badUrl}`);
      const response = await fetch(current, { redirect: "manual", signal, tls: options.tls } as RequestInit);
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        const location = response.headers.get("location");
        if (!location) throw new RegistryRefusal(subject, `HTTP ${response.status} redirect without a location`);
        current = new URL(location, current).href;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new RegistryRefusal(subject, `${where(current)} answered HTTP ${response.status}`);
      }
      return { bytes: await readCapped(response, maxBytes, subject), finalUrl: current };
    }
    throw new RegistryRefusal(subject, `more than ${LIMITS.redirects} redirects`);
  } catch (err) {
    if (err instanceof RegistryRefusal) throw err;
    if (signal.aborted) throw new RegistryRefusal(subject, `no complete answer within ${timeoutMs / 1000}s`);
    throw new RegistryRefusal(subject, `cannot fetch ${subject.includes(current) ? "it" : current}: ${withoutRuntimeHint((err as Error).message)}`);
  }
}

async function readCapped(response: Response, maxBytes: number, subject: string): Promise<Uint8Array> {
  const overCap = () => new RegistryRefusal(subject, `larger than the ${maxBytes / 1024} KiB cap`);
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw overCap();
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw overCap();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Bytes → text, refusing anything that is not valid UTF-8 rather than guessing. */
export function decodeUtf8(bytes: Uint8Array, subject: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new RegistryRefusal(subject, "the body is not valid UTF-8 text");
  }
}
