type Schema = Record<string, unknown>;

/**
 * A server's input schema as the tool's `parameters`, sent non-strict: passed through as the server
 * wrote it (strict mode would need every property required and every object closed, which would change
 * what the tool accepts), with `$schema` dropped and the `type` and `properties` the API wants added
 * when missing. A schema the API still refuses drops the tool, not the request (the run retries).
 */
export function toolParameters(inputSchema: unknown): Schema {
  const { $schema: _, ...schema } = inputSchema !== null && typeof inputSchema === "object" && !Array.isArray(inputSchema) ? (inputSchema as Schema) : {};
  return { ...schema, type: schema.type ?? "object", ...(schema.type === undefined || schema.type === "object" ? { properties: schema.properties ?? {} } : {}) };
}
