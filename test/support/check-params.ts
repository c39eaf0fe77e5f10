/**
 * Request-level rules of the Responses API beyond the input pairing rules in check-input.ts:
 * unknown parameters, the output-token floor, sampling params on reasoning models, and the
 * strict-mode schema rules for function tools. Texts are the real API's.
 */
import type { ApiError } from "./check-input.ts";
import { checkTextFormat } from "./check-text-format.ts";

export const invalid = (message: string, param: string | null, code: string | null): ApiError => ({
  status: 400,
  body: { error: { message, type: "invalid_request_error", param, code } },
});

/** The strict server's convention: names starting "gpt-5" or "o" behave as reasoning models. */
export const isReasoningModel = (model: string) => model.startsWith("gpt-5") || model.startsWith("o");

// From the OpenAPI spec's CreateResponse and its input item schemas.
const REQUEST_KEYS = new Set([
  "background", "context_management", "conversation", "include", "input", "instructions", "max_output_tokens",
  "max_tool_calls", "metadata", "model", "moderation", "parallel_tool_calls", "previous_response_id", "prompt",
  "prompt_cache_key", "prompt_cache_options", "prompt_cache_retention", "reasoning", "safety_identifier",
  "service_tier", "store", "stream", "stream_options", "temperature", "text", "tool_choice", "tools",
  "top_logprobs", "top_p", "truncation", "user",
]);
const ITEM_KEYS: Record<string, Set<string>> = {
  message: new Set(["type", "id", "role", "content", "status", "phase"]),
  function_call: new Set(["type", "id", "call_id", "name", "namespace", "arguments", "status", "caller"]),
  function_call_output: new Set(["type", "id", "call_id", "name", "namespace", "output", "status", "caller"]),
  reasoning: new Set(["type", "id", "summary", "content", "encrypted_content", "status"]),
};

export function checkParams(body: Record<string, any>): ApiError | null {
  for (const key of Object.keys(body))
    if (!REQUEST_KEYS.has(key)) return invalid(`Unknown parameter: '${key}'.`, key, "unknown_parameter");

  if (Array.isArray(body.input))
    for (let i = 0; i < body.input.length; i++) {
      const item = body.input[i];
      const known = item && typeof item === "object" ? ITEM_KEYS[item.type] : undefined;
      for (const key of known ? Object.keys(item) : [])
        if (!known!.has(key)) return invalid(`Unknown parameter: 'input[${i}].${key}'.`, `input[${i}].${key}`, "unknown_parameter");
    }

  const max = body.max_output_tokens;
  if (typeof max === "number" && max < 16)
    return invalid(
      `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${max} instead.`,
      "max_output_tokens",
      "integer_below_min_value",
    );

  if (typeof body.model === "string" && isReasoningModel(body.model) && body.temperature !== undefined && body.temperature !== 1)
    return invalid("Unsupported parameter: 'temperature' is not supported with this model.", "temperature", null);

  if (body.tools !== undefined && !Array.isArray(body.tools))
    return invalid("Invalid type for 'tools': expected an array of tools.", "tools", "invalid_type");
  for (let t = 0; t < (body.tools ?? []).length; t++) {
    const tool = body.tools[t];
    if (tool?.type !== "function") continue;
    if (typeof tool.name !== "string")
      return invalid(`Missing required parameter: 'tools[${t}].name'.`, `tools[${t}].name`, "missing_required_parameter");
    // Strict or not, the API reads every function's schema: these it refuses either way.
    const shape = schemaShapeProblem(tool.parameters, []);
    if (shape) return invalid(`Invalid schema for function '${tool.name}': ${shape}`, `tools[${t}].parameters`, "invalid_function_parameters");
    if (tool.strict === true) {
      const problem = strictSchemaProblem(tool.parameters, []);
      if (problem)
        return invalid(`Invalid schema for function '${tool.name}': ${problem}`, `tools[${t}].parameters`, "invalid_function_parameters");
    }
  }
  return checkTextFormat(body.text);
}

/** What the API refuses in any function's schema: a top level that is no object, an array without `items`. */
export function schemaShapeProblem(schema: any, path: string[]): string | null {
  if (!schema || typeof schema !== "object") return null;
  if (path.length === 0 && schema.type !== undefined && schema.type !== "object")
    return `schema must be a JSON Schema of 'type: "object"', got 'type: "${schema.type}"'.`;
  const context = `In context=(${path.map((p) => `'${p}'`).join(", ")}${path.length === 1 ? "," : ""})`;
  if (schema.type === "array" && schema.items === undefined) return `${context}, array schema missing items.`;
  for (const [key, inner] of Object.entries(schema.properties ?? {})) {
    const problem = schemaShapeProblem(inner, [...path, "properties", key]);
    if (problem) return problem;
  }
  if (schema.items && typeof schema.items === "object") return schemaShapeProblem(schema.items, [...path, "items"]);
  return null;
}

/** Strict mode needs every object closed (`additionalProperties: false`) and every property required. */
export function strictSchemaProblem(schema: any, path: string[]): string | null {
  if (!schema || typeof schema !== "object") return null;
  const context = `In context=(${path.map((p) => `'${p}'`).join(", ")}${path.length === 1 ? "," : ""})`;
  if (schema.type === "object" || schema.properties) {
    if (schema.additionalProperties !== false)
      return `${context}, 'additionalProperties' is required to be supplied and to be false.`;
    const keys = Object.keys(schema.properties ?? {});
    const required: unknown[] = Array.isArray(schema.required) ? schema.required : [];
    const missing = keys.find((k) => !required.includes(k));
    if (missing !== undefined)
      return `${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    for (const key of keys) {
      const inner = strictSchemaProblem(schema.properties[key], [...path, "properties", key]);
      if (inner) return inner;
    }
  }
  if (schema.items) return strictSchemaProblem(schema.items, [...path, "items"]);
  for (const [name, inner] of Object.entries(schema.$defs ?? {})) {
    const problem = strictSchemaProblem(inner, [...path, "$defs", name]);
    if (problem) return problem;
  }
  for (const branch of ["anyOf", "oneOf", "allOf"])
    if (Array.isArray(schema[branch]))
      for (let b = 0; b < schema[branch].length; b++) {
        const inner = strictSchemaProblem(schema[branch][b], [...path, branch, String(b)]);
        if (inner) return inner;
      }
  return null;
}
