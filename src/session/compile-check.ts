import type { z } from "zod";

/** Whether a value is one the schema takes exactly as it is (no transform, no key to strip). */
export type Check = (value: unknown) => boolean;

type Def = { type: string; [key: string]: any };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/**
 * A zod schema compiled once into plain checks, for what is read in bulk (every line of a long log
 * on resume): a fraction of zod's cost. It answers true only where zod would accept the value and
 * give it back unchanged — anything else (an unknown key zod would strip, a transform, a refinement,
 * a kind of schema not compiled here) answers false, and the caller lets zod decide and explain.
 */
export function compileCheck(schema: z.ZodType): Check {
  return compile(defOf(schema));
}

const never: Check = () => false;

function compile(def: Def): Check {
  switch (def.type) {
    case "string":
      return def.checks?.length ? never : (v) => typeof v === "string";
    case "boolean":
      return (v) => typeof v === "boolean";
    case "unknown":
      return () => true;
    case "number":
      return numberCheck(def);
    case "literal": {
      const values: unknown[] = def.values;
      return (v) => values.includes(v);
    }
    case "enum": {
      const values = new Set(Object.values(def.entries as Record<string, unknown>));
      return (v) => values.has(v);
    }
    case "optional": {
      const inner = compile(defOf(def.innerType));
      return (v) => v === undefined || inner(v);
    }
    case "array": {
      const element = compile(defOf(def.element));
      return (v) => Array.isArray(v) && v.every(element);
    }
    case "record": {
      const key = defOf(def.keyType);
      if (key.type !== "string" || key.checks?.length) return never;
      const value = compile(defOf(def.valueType));
      return (v) => isObject(v) && Object.values(v).every(value);
    }
    case "object":
      return objectCheck(def);
    case "union":
      return unionCheck(def);
    default:
      return never;
  }
}

function numberCheck(def: Def): Check {
  const tests: ((n: number) => boolean)[] = [Number.isFinite];
  for (const check of def.checks ?? []) {
    const c = defOf(check) as Def & { check: string };
    if (c.check === "number_format" && c.format === "safeint") tests.push(Number.isSafeInteger);
    else if (c.check === "greater_than") tests.push(c.inclusive ? (n) => n >= c.value : (n) => n > c.value);
    else return never;
  }
  return (v) => typeof v === "number" && tests.every((test) => test(v));
}

function objectCheck(def: Def): Check {
  if (def.catchall || def.checks?.length) return never;
  const fields = Object.entries(def.shape as Record<string, unknown>).map(([key, schema]) => [key, compile(defOf(schema))] as const);
  const known = new Set(fields.map(([key]) => key));
  return (v) => {
    if (!isObject(v)) return false;
    for (const key in v) if (!known.has(key)) return false;
    for (const [key, check] of fields) if (!check(v[key])) return false;
    return true;
  };
}

/** A discriminated union: the option is picked by its literal discriminator, as zod picks it. */
function unionCheck(def: Def): Check {
  const discriminator: string | undefined = def.discriminator;
  if (!discriminator || def.checks?.length) return never;
  const byValue = new Map<unknown, Check>();
  for (const option of def.options as unknown[]) {
    const o = defOf(option);
    const tag = o.type === "object" ? defOf(o.shape[discriminator]) : undefined;
    if (tag?.type !== "literal") return never;
    const check = compile(o);
    for (const value of tag.values as unknown[]) byValue.set(value, check);
  }
  return (v) => isObject(v) && (byValue.get(v[discriminator]) ?? never)(v);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
