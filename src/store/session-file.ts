import { z } from "zod";
import type { Message } from "../agent/messages.ts";
import { emptyNotebook } from "../agent/notebook.ts";
import { emptyCallLog } from "./call-log.ts";
import { clipLine } from "../text/one-line.ts";
import { firstIssue, parseJson } from "./read-json.ts";
import {
  SCHEMA_VERSION,
  sessionFileSchema,
  sessionHeaderSchema,
  type CallLog,
  type Notebook,
  type SessionFile,
  type SessionHeader,
} from "./session-schema.ts";
import { sessionTotals } from "./session-totals.ts";

/** A session in memory. Title, totals and counts are derived from it when it is written. */
export type Session = {
  id: string;
  createdAt: string;
  cwd: string;
  /** The model in use now; resuming restores it. */
  model: string;
  messages: Message[];
  notebook: Notebook;
  callLog: CallLog;
  /** A model's window as learned from an overflow (smaller than the configured or known one). */
  contextWindow?: { model: string; tokens: number };
  /** The file version this copy was last loaded from or written as; absent until it is on disk. */
  onDisk?: DiskVersion;
};

/** Which write of a session file: another process's save changes both. */
export type DiskVersion = { revision: number; updatedAt: string };

export const diskVersionOf = (header: SessionHeader): DiskVersion => ({ revision: header.revision ?? 0, updatedAt: header.updatedAt });

export type SessionFileError =
  | { kind: "corrupt"; path: string; message: string }
  | { kind: "newer-schema"; path: string; schemaVersion: number; message: string };

export type ParseResult = { ok: true; value: SessionFile } | { ok: false; error: SessionFileError };

export function newSession(opts: { cwd: string; model: string }, now = new Date()): Session {
  return {
    id: Bun.randomUUIDv7(),
    createdAt: now.toISOString(),
    cwd: opts.cwd,
    model: opts.model,
    messages: [],
    notebook: emptyNotebook(),
    callLog: emptyCallLog(),
  };
}

/** Read before the full schema, so a file from a newer shiro gets a clear error instead of a mismatch. */
const versionedObject = z.looseObject({ schemaVersion: z.number().int(), id: z.unknown() });

export const TITLE_CHARS = 60;

/** What the person typed ends where attached context begins: an `@path` file or piped stdin. */
const ATTACHED_CONTEXT = /\n\n<(?:file path="|stdin>\n)/;

/** The first prompt on one line, without attached context, clipped to 60 characters. */
export function titleOf(messages: readonly Message[]): string {
  const first = messages.find((m) => m.role === "user");
  return first?.role === "user" ? clipLine(first.text.split(ATTACHED_CONTEXT)[0]!, TITLE_CHARS) : "";
}

/**
 * The header fields are written first and `messages` right after them, so listing can read a
 * bounded prefix up to this marker instead of the whole transcript. JSON escapes every quote inside
 * a string, so the unescaped `,"messages":` can only be this key.
 */
const HEADER_END = ',"messages":';

/** The file's next version: one write after the version this copy came from. */
export const nextVersion = (session: Session, now = new Date()): DiskVersion => ({
  revision: (session.onDisk?.revision ?? 0) + 1,
  updatedAt: now.toISOString(),
});

export function serialiseSession(session: Session, version = nextVersion(session)): string {
  const totals = sessionTotals(session.messages);
  const file: SessionFile = {
    schemaVersion: SCHEMA_VERSION,
    id: session.id,
    createdAt: session.createdAt,
    updatedAt: version.updatedAt,
    revision: version.revision,
    cwd: session.cwd,
    model: session.model,
    title: titleOf(session.messages),
    messageCount: session.messages.length,
    usage: totals.usage,
    costUsd: totals.costUsd ?? null,
    messages: session.messages,
    notebook: session.notebook,
    callLog: session.callLog,
    ...(session.contextWindow !== undefined ? { contextWindow: session.contextWindow } : {}),
  };
  return JSON.stringify(file);
}

export function sessionFromFile(file: SessionFile): Session {
  const { id, createdAt, cwd, model, messages, notebook, callLog, contextWindow } = file;
  return { id, createdAt, cwd, model, messages, notebook, callLog, ...(contextWindow !== undefined ? { contextWindow } : {}), onDisk: diskVersionOf(file) };
}

const newerSchema = (path: string, id: unknown, schemaVersion: number): SessionFileError => ({
  kind: "newer-schema",
  path,
  schemaVersion,
  message: `session ${typeof id === "string" ? id : path} was written by a newer shiro (schema ${schemaVersion}); upgrade shiro to open it`,
});

/** A whole session file, checked against the schema; a newer schema version is named, not reported as corrupt. */
export function parseSessionFile(text: string, path: string): ParseResult {
  const raw = parseJson(text, versionedObject, path);
  if (!raw.ok) return { ok: false, error: { kind: "corrupt", path, message: raw.reason === "corrupt" ? raw.message : path } };
  const { schemaVersion, id } = raw.value;
  if (schemaVersion > SCHEMA_VERSION) return { ok: false, error: newerSchema(path, id, schemaVersion) };
  const parsed = sessionFileSchema.safeParse(raw.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: { kind: "corrupt", path, message: `${path} does not match the session schema${firstIssue(parsed.error)}` } };
}

export type HeaderResult =
  | { ok: true; value: SessionHeader }
  | { ok: false; error: SessionFileError }
  /** The prefix did not hold a complete header: read the whole file instead. */
  | { ok: false; error?: undefined };

/** The listing fields from the start of a file, without parsing its messages. */
export function parseSessionHeader(prefix: string, path: string): HeaderResult {
  const end = prefix.indexOf(HEADER_END);
  if (end < 0) return { ok: false };
  let raw: unknown;
  try {
    raw = JSON.parse(`${prefix.slice(0, end)}}`);
  } catch {
    return { ok: false };
  }
  const probe = versionedObject.safeParse(raw);
  if (probe.success && probe.data.schemaVersion > SCHEMA_VERSION) {
    return { ok: false, error: newerSchema(path, probe.data.id, probe.data.schemaVersion) };
  }
  const header = sessionHeaderSchema.safeParse(raw);
  return header.success ? { ok: true, value: header.data } : { ok: false };
}

