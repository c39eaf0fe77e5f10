import type { InputImage } from "../session/messages.ts";
import { formatBytes } from "../text/format-bytes.ts";
import { formatCount } from "../text/format-count.ts";

/** The largest image sent: under the API's own limit per image, and every later request of the session sends it again. */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The kinds of image the API reads, as a person names them. */
export const IMAGE_KINDS = "PNG, JPEG, GIF or WebP";

const ascii = (bytes: Uint8Array, from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
const SIGNATURES: readonly [string, (b: Uint8Array) => boolean][] = [
  ["image/png", (b) => b[0] === 0x89 && ascii(b, 1, "PNG\r\n\x1a\n")],
  ["image/jpeg", (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")],
  ["image/webp", (b) => ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")],
];

/** The media type of bytes that are a PNG, JPEG, GIF or WebP image by their first 12 bytes, whatever the name or a server says; else undefined. */
export const mediaTypeOf = (head: Uint8Array): string | undefined => SIGNATURES.find(([, is]) => is(head))?.[0];

/**
 * A file's bytes as an image for the model: undefined when they are no image of a kind the API reads,
 * a line saying why not when one is too large to send.
 */
export function imageOf(bytes: Uint8Array, shown: string): { image: InputImage } | { refused: string } | undefined {
  const mediaType = mediaTypeOf(bytes);
  if (mediaType === undefined) return undefined;
  if (bytes.length > IMAGE_MAX_BYTES)
    return { refused: `${shown} is an image of ${formatCount(bytes.length)} bytes, over the ${formatBytes(IMAGE_MAX_BYTES)} one may be; it was not sent (a smaller copy can be)` };
  return { image: { mediaType, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64") } };
}
