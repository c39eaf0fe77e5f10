import { atomicWrite } from "../store/atomic-write.ts";
import { boundedFetch, type FetchOptions } from "./bounded-fetch.ts";
import type { RegistryEntry } from "./index-schema.ts";
import { installedBodyPath, originPath } from "./installed-paths.ts";
import { LIMITS } from "./limits.ts";
import type { Origin } from "./origin.ts";
import { entryLabel, type RegistryKind } from "./refusal.ts";
import { validateBody, type ValidBody } from "./validate-body.ts";

export type PreparedInstall = { body: ValidBody; origin: Origin };

/** Fetches and validates an entry's body without writing anything; throws RegistryRefusal. */
export async function prepareInstall(
  kind: RegistryKind,
  entry: RegistryEntry,
  indexUrl: string,
  options: FetchOptions = {},
  now = new Date(),
): Promise<PreparedInstall> {
  const { bytes } = await boundedFetch(entry.url, LIMITS.bodyBytes, entryLabel(kind, entry.name), options);
  const body = validateBody(kind, entry, bytes);
  const origin: Origin = {
    kind,
    name: entry.name,
    indexUrl,
    entryUrl: entry.url,
    sha256: body.sha256,
    installedAt: now.toISOString(),
    ...(entry.author ? { author: entry.author } : {}),
  };
  return { body, origin };
}

/**
 * Writes a prepared install. The origin goes first: a body on disk always has its origin beside it,
 * and an origin left without a body (a crash between the two renames) is ignored by every reader.
 */
export async function commitInstall(home: string, { body, origin }: PreparedInstall): Promise<string> {
  await atomicWrite(originPath(home, body.kind, origin.name), `${JSON.stringify(origin, null, 2)}\n`);
  const path = installedBodyPath(home, body.kind, origin.name);
  await atomicWrite(path, body.text);
  return path;
}
