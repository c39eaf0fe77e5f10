/** Keywords strict mode does not take (Structured Outputs' supported subset), with what to use instead. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  oneOf: 'use "anyOf"',
  allOf: "write the merged schema out",
  not: "describe what is allowed instead",
  if: "use \"anyOf\" of the cases",
  then: "use \"anyOf\" of the cases",
  else: "use \"anyOf\" of the cases",
  dependentRequired: "make every property required (null when absent)",
  dependentSchemas: "use \"anyOf\" of the cases",
  patternProperties: "name the properties",
  unevaluatedProperties: 'use "additionalProperties": false',
  unevaluatedItems: 'describe the items with "items"',
  propertyNames: "name the properties",
  minProperties: "name the properties",
  maxProperties: "name the properties",
  contains: 'describe the items with "items"',
  minContains: 'describe the items with "items"',
  maxContains: 'describe the items with "items"',
  uniqueItems: "check uniqueness after reading the answer",
};

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);
const where = (path: readonly string[]) => (path.length ? `at ${path.join(".")}` : "at the top level");

/**
 * Why the API would refuse `schema` as a strict `json_schema` format, in one sentence naming the place
 * and the fix; undefined when it would take it. Strict mode needs an object at the top, every object
 * closed (`additionalProperties: false`) with every property in `required`, and only its subset of keywords.
 */
export function strictSchemaProblem(schema: unknown): string | undefined {
  if (!isNode(schema) || schema.type !== "object")
    return 'the top level must be an object schema ("type": "object"); wrap any other value in one of its properties';
  return nodeProblem(schema, []);
}

function nodeProblem(node: unknown, path: string[]): string | undefined {
  if (!isNode(node)) return `${where(path)} is not a schema (an object of keywords)`;
  if (typeof node.$ref === "string") return node.$ref.startsWith("#") ? undefined : `${where(path)}: only a "$ref" within the file ("#/$defs/…") can be used`;
  const keyword = Object.keys(node).find((key) => Object.hasOwn(UNSUPPORTED, key));
  if (keyword) return `"${keyword}" ${where(path)} is not supported in strict mode; ${UNSUPPORTED[keyword]}`;
  if (node.type === "object" || node.properties !== undefined) {
    const properties = isNode(node.properties) ? node.properties : {};
    const holder = path.length ? `the object ${where(path)}` : "the top-level object";
    if (node.additionalProperties !== false) return `${holder} needs "additionalProperties": false (strict mode allows no keys beyond its "properties")`;
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = Object.keys(properties).find((key) => !required.includes(key));
    if (missing !== undefined)
      return `property "${missing}" of ${holder} is not in "required": strict mode needs every property listed there (let it be null, "type": ["string", "null"], if it may be missing)`;
    for (const [key, inner] of Object.entries(properties)) {
      const problem = nodeProblem(inner, [...path, "properties", key]);
      if (problem) return problem;
    }
  }
  if (node.items !== undefined) {
    if (Array.isArray(node.items)) return `"items" ${where(path)} is a list; strict mode takes one schema for every item`;
    const problem = nodeProblem(node.items, [...path, "items"]);
    if (problem) return problem;
  }
  for (const group of ["$defs", "definitions"])
    for (const [key, inner] of Object.entries(isNode(node[group]) ? node[group] : {})) {
      const problem = nodeProblem(inner, [...path, group, key]);
      if (problem) return problem;
    }
  const branches = Array.isArray(node.anyOf) ? node.anyOf : [];
  for (let i = 0; i < branches.length; i++) {
    const problem = nodeProblem(branches[i], [...path, "anyOf", String(i)]);
    if (problem) return problem;
  }
  return undefined;
}
