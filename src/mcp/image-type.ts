/** The image types the API reads, by their first bytes. */
const SIGNATURES: readonly [string, (b: Buffer) => boolean][] = [
  ["image/png", (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ["image/jpeg", (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1"))],
  ["image/webp", (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP"],
];
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * What base64 `data` really is — a PNG, JPEG, GIF or WebP by its first bytes, whatever type a server
 * claims —, or undefined: anything else sent as an image would fail every later request of the session.
 */
export function imageType(data: string): string | undefined {
  if (data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
  const head = Buffer.from(data.slice(0, 24), "base64");
  return SIGNATURES.find(([, is]) => is(head))?.[0];
}
