import { EXPORT_FORMAT, EXPORT_VERSION, sessionExportSchema, type SessionExport } from "./export-schema.ts";

export type ParsedExport = { ok: true; doc: SessionExport } | { ok: false; reason: string };

/**
 * A file's text → a session export of the version this shiro reads, or why it is none, in words that
 * finish "<file> is …": not JSON, some other file, a newer version, a field that is wrong (its path).
 */
export function parseExport(text: string): ParsedExport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: `not JSON (${(err as Error).message.split("\n")[0]})` };
  }
  const head = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
  if (head.format !== EXPORT_FORMAT) return { ok: false, reason: `not a shiro session export (it has no "format": "${EXPORT_FORMAT}")` };
  if (head.version !== EXPORT_VERSION) {
    const newer = typeof head.version === "number" && head.version > EXPORT_VERSION;
    return { ok: false, reason: `a version ${JSON.stringify(head.version)} export; this shiro reads version ${EXPORT_VERSION}${newer ? " (a newer shiro wrote it: update this one)" : ""}` };
  }
  const parsed = sessionExportSchema.safeParse(json);
  if (parsed.success) return { ok: true, doc: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, reason: `not a valid version ${EXPORT_VERSION} export (${issue.path.join(".") || "the whole file"}: ${issue.message})` };
}
