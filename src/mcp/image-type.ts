import { mediaTypeOf } from "../files/image-of.ts";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What base64 `data` really is — a PNG, JPEG, GIF or WebP by its first bytes, whatever type a server
 * claims —, or undefined: anything else sent as an image would fail every later request of the session.
 */
export function imageType(data: string): string | undefined {
  if (data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
  return mediaTypeOf(Buffer.from(data.slice(0, 24), "base64"));
}
