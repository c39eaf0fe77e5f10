/** Resolves once `holds()` is true, checked every 20 ms; throws naming `what` after `timeoutMs`. */
export async function waitUntil(holds: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !holds(); await Bun.sleep(20)) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${what}`);
  }
}
