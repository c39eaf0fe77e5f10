/** Small real images (each opens in an image viewer), for tests that send or refuse them. */

/** A 1×1 PNG. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
/** A 1×1 GIF. */
export const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** A PNG of `bytes` bytes: the 1×1 one with a private chunk padding it (viewers skip it; the API reads it as the same image). */
export function pngOfSize(bytes: number): Buffer {
  const pad = bytes - PNG.length - 12;
  const chunk = Buffer.alloc(12 + pad);
  chunk.writeUInt32BE(pad, 0);
  chunk.write("shRo", 4, "latin1");
  // The CRC is left zero: nothing here decodes the chunk.
  return Buffer.concat([PNG.subarray(0, 8), chunk, PNG.subarray(8)]);
}

/** What a `data:` URL in a request holds, decoded. */
export const dataUrlBytes = (url: string): Buffer => Buffer.from(url.slice(url.indexOf(",") + 1), "base64");
