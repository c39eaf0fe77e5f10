/** Lowercase hex sha256, the form the index pins and origin records keep. */
export const sha256Hex = (bytes: Uint8Array | string): string => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
