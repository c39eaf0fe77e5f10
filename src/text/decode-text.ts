import { formatCount } from "./format-count.ts";

/** Input bytes as text for the model: `escaped` bytes (NULs, bytes that are not UTF-8) stand as `\xNN`. */
export type DecodedText = { binary: false; text: string; escaped: number } | { binary: true; bytes: number };

/** Input with at least this share of NULs and bytes that are not UTF-8 is binary, not text with a few stray bytes. */
const BINARY_SHARE = 0.1;

const fatal = new TextDecoder("utf-8", { fatal: true });
const plain = new TextDecoder();
const HEX = new TextEncoder().encode("0123456789abcdef");

/**
 * Bytes read from stdin or an attached file, decoded for a request. Text is never sent with U+FFFD or
 * NUL in it: a log with a stray NUL or a cut multi-byte character keeps every other byte, the odd ones
 * written `\x00`; binary data (an image, an archive, UTF-16) is named as such and not decoded at all.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  // Nearly all input is UTF-8 without a NUL: checked natively, without a loop over its bytes here.
  if (bytes.indexOf(0) === -1) {
    try {
      return { binary: false, text: fatal.decode(bytes), escaped: 0 };
    } catch {}
  }
  // Counted first, stopping at the share: a large binary is named without a walk through all of it.
  const limit = Math.ceil(bytes.length * BINARY_SHARE);
  if (countOdd(bytes, limit) >= limit) return { binary: true, bytes: bytes.length };
  return { binary: false, ...escapeOdd(bytes, limit) };
}

/** `stdin is binary, not UTF-8 text (100,000 bytes)`: the start of every line that names binary input. */
export const binaryWords = (label: string, bytes: number): string =>
  `${label} is binary, not UTF-8 text (${formatCount(bytes)} bytes)`;

/** The notice for text sent with a few bytes escaped, so a `\x00` in the request is no surprise. */
export const escapedWords = (label: string, escaped: number): string =>
  `${label} has ${formatCount(escaped)} ${escaped === 1 ? "byte that is" : "bytes that are"} NUL or not UTF-8, sent as \\xNN`;

/** How many bytes are NUL or not part of a well-formed UTF-8 sequence, counted up to `limit`. */
function countOdd(bytes: Uint8Array, limit: number): number {
  let odd = 0;
  for (let i = 0; i < bytes.length && odd < limit; ) {
    const n = sequenceLength(bytes, i);
    if (n === 0) {
      odd++;
      i++;
    } else i += n;
  }
  return odd;
}

/** The text with each of its (fewer than `limit`) odd bytes written `\xNN`: the runs between them copied into one buffer, decoded once. */
function escapeOdd(bytes: Uint8Array, limit: number): { text: string; escaped: number } {
  const out = new Uint8Array(bytes.length + 3 * limit);
  let at = 0;
  let from = 0;
  let escaped = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = sequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out.set(bytes.subarray(from, i), at);
    at += i - from;
    const b = bytes[i]!;
    out[at++] = 0x5c; // \
    out[at++] = 0x78; // x
    out[at++] = HEX[b >> 4]!;
    out[at++] = HEX[b & 15]!;
    escaped++;
    from = ++i;
  }
  out.set(bytes.subarray(from), at);
  return { text: plain.decode(out.subarray(0, at + bytes.length - from)), escaped };
}

// Per lead byte: its sequence's length (0: starts none) and the range its second byte must fall in
// (RFC 3629: no overlongs, no surrogates, nothing past U+10FFFF); later bytes are plain continuations.
const LENGTH = new Uint8Array(256);
const LOW = new Uint8Array(256).fill(0x80);
const HIGH = new Uint8Array(256).fill(0xbf);
LENGTH.fill(1, 0x01, 0x80).fill(2, 0xc2, 0xe0).fill(3, 0xe0, 0xf0).fill(4, 0xf0, 0xf5);
LOW[0xe0] = 0xa0;
HIGH[0xed] = 0x9f;
LOW[0xf0] = 0x90;
HIGH[0xf4] = 0x8f;

/** The length of the well-formed sequence at `i`, 0 when its first byte starts none (or is NUL). */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const count = LENGTH[b]!;
  if (count <= 1) return count;
  if (i + count > bytes.length) return 0;
  const second = bytes[i + 1]!;
  if (second < LOW[b]! || second > HIGH[b]!) return 0;
  for (let k = 2; k < count; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return count;
}
