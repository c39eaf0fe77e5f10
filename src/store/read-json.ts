import type { z } from "zod";
import { compileCheck, type Check } from "../session/compile-check.ts";

export type ReadResult<T> =
  | { ok: true; value: T }
  | { ok: false; reason: "missing" }
  | { ok: false; reason: "corrupt"; message: string };

/** Reads a JSON file through a zod schema. Never throws: a missing or corrupt file is a result. */
export async function readJson<S extends z.ZodType>(path: string, schema: S): Promise<ReadResult<z.infer<S>>> {
  let text: string;
  try {
    text = await Bun.file(path).text();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { ok: false, reason: "missing" };
    return { ok: false, reason: "corrupt", message: `cannot read ${path}: ${(err as Error).message}` };
  }
  return parseJson(text, schema, path);
}

export function parseJson<S extends z.ZodType>(text: string, schema: S, path: string): ReadResult<z.infer<S>> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: "corrupt", message: `${path} is not valid JSON (${(err as Error).message})` };
  }
  // A file as shiro wrote it is taken by the compiled check: zod's first parse of a schema costs milliseconds in a cold process.
  if (checkOf(schema)(raw)) return { ok: true, value: raw as z.infer<S> };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: "corrupt", message: `${path} does not match its schema${firstIssue(parsed.error)}` };
  return { ok: true, value: parsed.data };
}

const checks = new WeakMap<z.ZodType, Check>();
function checkOf(schema: z.ZodType): Check {
  let check = checks.get(schema);
  if (!check) checks.set(schema, (check = compileCheck(schema)));
  return check;
}

/** Where in a value a zod issue lies, written as code would: `[0].decision`, `deny[2].tools`; "" for the top level. */
export const issuePath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((at, key) => (typeof key === "number" ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), "");

/**
 * The first problem zod found, as ` at notebook.todos.0: message` (no location for the top level). An
 * unknown key comes first: a misspelt key is also a missing one, and only its message names the fix.
 */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues.find((i) => i.code === "unrecognized_keys") ?? error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
  return `${where}: ${issue?.message}`;
}
