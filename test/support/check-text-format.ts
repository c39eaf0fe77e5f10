/**
 * `text.format` as the Responses API checks it (texts are the real API's): a `json_schema` format needs
 * a name of a-z, A-Z, 0-9, `_`, `-` (64 at most) and a schema; in strict mode the schema's top level must
 * be an object and every object closed with every property required. An answer made under a strict
 * format always parses and matches: the server's constrained decoding cannot write anything else.
 */
import { z } from "zod";
import type { ApiError } from "./check-input.ts";
import { invalid, strictSchemaProblem } from "./check-params.ts";

export function checkTextFormat(text: any): ApiError | null {
  const format = text?.format;
  if (format === undefined || format.type === "text" || format.type === "json_object") return null;
  if (format.type !== "json_schema")
    return invalid(`Invalid value: '${format.type}'. Supported values are: 'text', 'json_object', and 'json_schema'.`, "text.format.type", "invalid_value");
  if (typeof format.name !== "string") return invalid("Missing required parameter: 'text.format.name'.", "text.format.name", "missing_required_parameter");
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(format.name))
    return invalid("Invalid 'text.format.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.", "text.format.name", "invalid_value");
  if (format.schema === undefined) return invalid("Missing required parameter: 'text.format.schema'.", "text.format.schema", "missing_required_parameter");
  if (format.strict !== true) return null;
  const schemaError = (problem: string) => invalid(`Invalid schema for response_format '${format.name}': ${problem}`, "text.format.schema", "invalid_json_schema");
  if (format.schema?.type !== "object") return schemaError(`schema must be a JSON Schema of 'type: "object"', got 'type: "${format.schema?.type ?? "None"}"'.`);
  const problem = strictSchemaProblem(format.schema, []);
  return problem ? schemaError(problem) : null;
}

/** Why `answer` could not have come from the API under the request's strict format, or null. */
export function formatBreach(body: any, answer: string): string | null {
  const format = body?.text?.format;
  if (format?.type !== "json_schema" || format.strict !== true) return null;
  try {
    const checked = z.fromJSONSchema(format.schema).safeParse(JSON.parse(answer));
    return checked.success ? null : `${JSON.stringify(answer)} does not match the strict text.format: ${checked.error.issues[0]!.message}`;
  } catch (e) {
    return `${JSON.stringify(answer)} is not JSON under a strict text.format (${(e as Error).message})`;
  }
}
