import { z } from "zod";
import type { FunctionTool } from "openai/resources/responses/responses";
/** What the wire needs of a tool: its name, what it tells the model, and its arguments' schema. */
export type ToolSpec = { name: string; description: string; schema: z.ZodType; parameters?: Record<string, unknown> };

type Schema = Record<string, unknown>;

// Keywords strict mode cannot express; a schema using one is sent non-strict rather than rejected.
const UNSTRICTABLE = ["allOf", "not", "if", "then", "else", "patternProperties", "propertyNames", "dependentSchemas", "unevaluatedProperties"];

/**
 * A tool as a strict function tool. Strict mode wants every property `required` and
 * `additionalProperties:false`, so an optional property becomes required but nullable; the model
 * then sends `null` for it, which `dropNullArguments` removes before the tool's own schema parses.
 * Strict it stays: `strict: false` would spare ~500 bytes a request of the twelve tools (the longer
 * `required` lists, the nulls), but then arguments may not match and a step goes on a failed parse.
 */
export function toolSchema(tool: ToolSpec): FunctionTool {
  // A schema written elsewhere (an MCP server's) goes as it is: strictifying it would change what it accepts.
  if (tool.parameters) return { type: "function", name: tool.name, description: tool.description, parameters: tool.parameters, strict: false };
  const { $schema: _, ...json } = z.toJSONSchema(tool.schema, { io: "input", unrepresentable: "any" }) as Schema;
  try {
    return { type: "function", name: tool.name, description: tool.description, parameters: strictify(json), strict: true };
  } catch {
    return { type: "function", name: tool.name, description: tool.description, parameters: json, strict: false };
  }
}

function strictify(node: Schema): Schema {
  if (UNSTRICTABLE.some((k) => k in node)) throw new Error("not expressible in strict mode");
  const out: Schema = { ...node };
  // `default` is not part of strict mode's subset; the model still learns it from the description.
  if ("default" in out) {
    const note = `(default: ${JSON.stringify(out.default)})`;
    out.description = typeof out.description === "string" ? `${out.description} ${note}` : note;
    delete out.default;
  }
  // zod's int() writes JSON's safe-integer range as its bounds: true of every integer, it tells the model nothing.
  if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.oneOf) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((s: Schema) => strictify(s));
  if (out.items && typeof out.items === "object") out.items = strictify(out.items as Schema);
  for (const defs of ["$defs", "definitions"] as const) {
    if (out[defs]) out[defs] = mapValues(out[defs] as Record<string, Schema>, strictify);
  }
  if (out.type === "object") {
    // An open-ended map (z.record) has no fixed keys, which strict mode cannot describe.
    if (out.additionalProperties && out.additionalProperties !== false) throw new Error("open-ended object");
    const properties = (out.properties ?? {}) as Record<string, Schema>;
    const required = new Set((out.required ?? []) as string[]);
    out.properties = mapValues(properties, (schema, key) => (required.has(key) ? strictify(schema) : nullable(strictify(schema))));
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

// Strict mode takes a type list for a nullable scalar, the shortest way to say "optional": anyOf
// spends ~30 more bytes a field on every request. Objects, arrays and consts keep the anyOf.
const SCALARS = new Set(["string", "integer", "number", "boolean"]);

function nullable(schema: Schema): Schema {
  if (acceptsNull(schema)) return schema;
  if (SCALARS.has(schema.type as string) && !("const" in schema) && !("anyOf" in schema)) {
    const out: Schema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: "null" }] };
}

const acceptsNull = (schema: Schema): boolean =>
  schema.type === "null" ||
  (Array.isArray(schema.type) && schema.type.includes("null")) ||
  (Array.isArray(schema.anyOf) && schema.anyOf.some((s: Schema) => acceptsNull(s)));

const mapValues = <T, U>(record: Record<string, T>, fn: (value: T, key: string) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, fn(v, k)]));

/**
 * Removes null-valued keys from objects, at any depth (inside arrays too), so a strict model's
 * `null` for "not given" reaches the tool's schema as an absent `.optional()` property.
 */
export function dropNullArguments(raw: unknown): unknown {
  if (Array.isArray(raw)) return raw.map(dropNullArguments);
  if (raw === null || typeof raw !== "object") return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== null) out[key] = dropNullArguments(value);
  return out;
}
