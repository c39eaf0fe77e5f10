import { boundedFetch, decodeUtf8, type FetchOptions } from "./bounded-fetch.ts";
import { parseIndex, type RegistryIndex } from "./index-schema.ts";
import { LIMITS } from "./limits.ts";

/** Fetches and validates the whole index (256 KiB at most). */
export async function fetchIndex(indexUrl: string, options: FetchOptions = {}): Promise<RegistryIndex> {
  const subject = `index ${indexUrl}`;
  const { bytes } = await boundedFetch(indexUrl, LIMITS.indexBytes, subject, options);
  return parseIndex(decodeUtf8(bytes, subject), indexUrl);
}
