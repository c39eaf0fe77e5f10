import { basename } from "node:path";
import { z } from "zod";
import { UsageError } from "../exit/usage-error.ts";
import type { TextFormat } from "../wire/build-request.ts";
import { strictSchemaProblem } from "../wire/strict-schema.ts";

export type OutputSchema = {
  /** Sent as every request's `text.format`: the API then writes answers in the schema. */
  format: TextFormat;
  /** Why the final answer does not match, or undefined when it does. */
  mismatch(answer: string): string | undefined;
};

/**
 * `--output-schema <file>`: read, refused before any call when the API could not take it in strict
 * mode (naming the property), and turned into the check the answer meets here too: a compatible
 * server may not enforce the schema, and a gate must never pass an answer it cannot parse.
 */
export async function loadOutputSchema(path: string): Promise<OutputSchema> {
  const what = `--output-schema ${path}`;
  let text: string;
  try {
    text = await Bun.file(path).text();
  } catch (err) {
    throw new UsageError(`${what}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not JSON (${(err as Error).message})`);
  }
  const problem = strictSchemaProblem(schema);
  if (problem) throw new UsageError(`${what}: ${problem}`);
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (err) {
    throw new UsageError(`${what} cannot be used: ${(err as Error).message}`);
  }
  return {
    format: { type: "json_schema", name: formatName(path), schema: schema as Record<string, unknown>, strict: true },
    mismatch: (answer) => mismatch(answer, validator),
  };
}

/** The API takes a-z, A-Z, 0-9, _ and - (64 at most): the file's name without its extensions. */
const formatName = (path: string) => basename(path).replace(/\..*$/, "").replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) || "output";

function mismatch(answer: string, validator: z.ZodType): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(answer);
  } catch (err) {
    return `the answer is not JSON (${(err as Error).message})`;
  }
  const checked = validator.safeParse(value);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0]!;
  const why = issue.code === "invalid_union" ? "matches none of the schemas it may take" : issue.message;
  return `the answer does not match --output-schema at ${jsonPath(issue.path)}: ${why}`;
}

/** `$`, `$.verdict`, `$.items[0].name`: where in the answer, as jq users write it. */
const jsonPath = (path: readonly PropertyKey[]) => path.reduce<string>((at, key) => (typeof key === "number" ? `${at}[${key}]` : `${at}.${String(key)}`), "$");
