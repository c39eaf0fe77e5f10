import type { z } from "zod";

/** Whether a value is one the schema takes exactly as it is (no transform, no key to strip). */
export type Check = (value: unknown) => boolean;

type Def = { type: string; [key: string]: any };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/**
 * A zod schema compiled once into plain code, for what is read in bulk (every line of a long log on
 * resume): a fraction of zod's cost. It answers true only where zod would accept the value and give
 * it back unchanged — anything else (an unknown key zod would strip, a transform, a refinement, a
 * kind of schema not compiled here) answers false, and the caller lets zod decide and explain.
 *
 * Each part of the schema becomes a function of its own, with its fields tested in straight lines: a
 * resume runs it on tens of thousands of lines in a process whose JIT is still cold, where a tree of
 * shared closures called through one site each costs several times as much. The source is made from
 * the schema alone (keys and literals go in as JSON); no value read is ever part of it.
 */
export function compileCheck(schema: z.ZodType): Check {
  const parts: string[] = [];
  const consts: unknown[] = [];
  const root = compile(defOf(schema), { parts, consts });
  // eslint-disable-next-line no-new-func -- source built from the schema only, see above
  return new Function("consts", `"use strict";\n${parts.join("\n")}\nreturn ${root};`)(consts) as Check;
}

type Out = { parts: string[]; consts: unknown[] };

/** The name of a function testing `def` (added to `out.parts`), or "never" when it is not compiled. */
function compile(def: Def, out: Out): string {
  const body = bodyOf(def, out);
  if (body === undefined) return NEVER;
  const name = `f${out.parts.length}`;
  out.parts.push(`function ${name}(v) {\n${body}\n}`);
  return name;
}

const NEVER = "(() => false)";

/** A function body returning whether `v` fits; undefined when the kind is not compiled. */
function bodyOf(def: Def, out: Out): string | undefined {
  switch (def.type) {
    case "string":
      return def.checks?.length ? undefined : `return typeof v === "string";`;
    case "boolean":
      return `return typeof v === "boolean";`;
    case "unknown":
      return `return true;`;
    case "number":
      return numberBody(def);
    case "literal":
      return `return ${(def.values as unknown[]).map((value) => `v === ${literal(value, out)}`).join(" || ") || "false"};`;
    case "enum":
      return `switch (v) {\n${Object.values(def.entries as Record<string, unknown>).map((value) => `case ${literal(value, out)}:`).join("\n")}\nreturn true;\ndefault:\nreturn false;\n}`;
    case "optional": {
      const inner = compile(defOf(def.innerType), out);
      return `return v === undefined || ${inner}(v);`;
    }
    case "nullable": {
      const inner = compile(defOf(def.innerType), out);
      return `return v === null || ${inner}(v);`;
    }
    case "array": {
      if (def.checks?.length) return undefined;
      const element = compile(defOf(def.element), out);
      return `if (!Array.isArray(v)) return false;\nfor (let i = 0; i < v.length; i++) if (!${element}(v[i])) return false;\nreturn true;`;
    }
    case "record": {
      const key = defOf(def.keyType);
      if (def.checks?.length || key.type !== "string" || key.checks?.length) return undefined;
      const value = compile(defOf(def.valueType), out);
      return `if (${NOT_OBJECT}) return false;\nfor (const k in v) if (!${value}(v[k])) return false;\nreturn true;`;
    }
    case "object":
      return objectBody(def, out);
    case "union":
      return unionBody(def, out);
    default:
      return undefined;
  }
}

const NOT_OBJECT = `typeof v !== "object" || v === null || Array.isArray(v)`;

/** A literal as source: JSON for strings, numbers, booleans and null; anything else by reference. */
function literal(value: unknown, out: Out): string {
  if (typeof value === "string" || typeof value === "boolean" || value === null || (typeof value === "number" && Number.isFinite(value))) return JSON.stringify(value);
  out.consts.push(value);
  return `consts[${out.consts.length - 1}]`;
}

function numberBody(def: Def): string | undefined {
  const tests = ["typeof v === \"number\"", "Number.isFinite(v)"];
  for (const check of def.checks ?? []) {
    const c = defOf(check) as Def & { check: string };
    if (c.check === "number_format" && c.format === "safeint") tests.push("Number.isSafeInteger(v)");
    else if (c.check === "greater_than" && typeof c.value === "number") tests.push(`v ${c.inclusive ? ">=" : ">"} ${c.value}`);
    else return undefined;
  }
  return `return ${tests.join(" && ")};`;
}

function objectBody(def: Def, out: Out): string | undefined {
  if (def.catchall || def.checks?.length) return undefined;
  const fields = Object.entries(def.shape as Record<string, unknown>).map(([key, schema]) => [key, compile(defOf(schema), out)] as const);
  // An unknown key is one zod would strip: not taken as it is.
  const known = fields.map(([key]) => `case ${JSON.stringify(key)}:`).join("\n");
  const lines = [`if (${NOT_OBJECT}) return false;`, `for (const k in v) switch (k) {\n${known}\nbreak;\ndefault:\nreturn false;\n}`];
  for (const [key, check] of fields) lines.push(`if (!${check}(v[${JSON.stringify(key)}])) return false;`);
  lines.push("return true;");
  return lines.join("\n");
}

/** A discriminated union: the option is picked by its literal discriminator, as zod picks it. */
function unionBody(def: Def, out: Out): string | undefined {
  const discriminator: string | undefined = def.discriminator;
  if (!discriminator || def.checks?.length) return undefined;
  const cases: string[] = [];
  for (const option of def.options as unknown[]) {
    const o = defOf(option);
    const tag = o.type === "object" ? defOf(o.shape[discriminator]) : undefined;
    if (tag?.type !== "literal") return undefined;
    const check = compile(o, out);
    for (const value of tag.values as unknown[]) cases.push(`case ${literal(value, out)}:\nreturn ${check}(v);`);
  }
  return `if (${NOT_OBJECT}) return false;\nswitch (v[${JSON.stringify(discriminator)}]) {\n${cases.join("\n")}\ndefault:\nreturn false;\n}`;
}
