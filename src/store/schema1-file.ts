import { z } from "zod";
import { firstIssue, parseJson } from "./read-json.ts";
import { SCHEMA_VERSION, sessionFileSchema, type SessionFile } from "./session-schema.ts";

/** Read before the full schema, so a file from a newer shiro gets a clear error instead of a mismatch. */
const versionedObject = z.looseObject({ schemaVersion: z.number().int(), id: z.unknown() });

export type Schema1Result = { ok: true; value: SessionFile } | { ok: false; message: string };

/**
 * A session as shiro wrote it before logs: one JSON document (schema 1), checked against its schema.
 * Read to convert it; a file claiming a newer schema is named, not reported as corrupt.
 */
export function parseSchema1File(text: string, path: string): Schema1Result {
  const raw = parseJson(text, versionedObject, path);
  if (!raw.ok) return { ok: false, message: raw.reason === "corrupt" ? raw.message : path };
  const { schemaVersion, id } = raw.value;
  if (schemaVersion > SCHEMA_VERSION)
    return { ok: false, message: `session ${typeof id === "string" ? id : path} was written by a newer shiro (schema ${schemaVersion}); upgrade shiro to open it` };
  const parsed = sessionFileSchema.safeParse(raw.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: `${path} does not match the session schema${firstIssue(parsed.error)}` };
}
