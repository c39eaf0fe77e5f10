import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadOutputSchema } from "../../../src/print/output-schema.ts";
import { strictSchemaProblem } from "../../../src/wire/strict-schema.ts";
import { tempDir } from "../../support/run-shiro.ts";

const closed = (properties: Record<string, object>) => ({ type: "object", properties, required: Object.keys(properties), additionalProperties: false });

/** A tree of findings: recursive through $defs, a nullable field, an anyOf of shapes. */
const TREE = {
  ...closed({ root: { $ref: "#/$defs/node" }, note: { type: ["string", "null"] } }),
  $defs: {
    node: {
      ...closed({ name: { type: "string" }, kind: { anyOf: [closed({ file: { type: "string" } }), closed({ line: { type: "integer", minimum: 1 } })] }, children: { type: "array", items: { $ref: "#/$defs/node" } } }),
    },
  },
};

describe("strict mode's rules, refused by name", () => {
  test("a schema within them passes: nested, recursive, nullable, anyOf", () => {
    expect(strictSchemaProblem(TREE)).toBeUndefined();
  });

  test("each rule names where it is broken", () => {
    const node = TREE.$defs.node;
    expect(strictSchemaProblem({ ...TREE, $defs: { node: { ...node, required: ["name", "kind"] } } })).toStartWith('property "children" of the object at $defs.node is not in "required"');
    const kind = { anyOf: [{ type: "object", properties: { file: { type: "string" } }, required: ["file"] }] };
    expect(strictSchemaProblem({ ...TREE, $defs: { node: closed({ kind }) } })).toStartWith('the object at $defs.node.properties.kind.anyOf.0 needs "additionalProperties": false');
    expect(strictSchemaProblem(closed({ tags: { type: "array", items: [{ type: "string" }] } }))).toStartWith('"items" at properties.tags is a list');
    expect(strictSchemaProblem(closed({ a: { allOf: [] } }))).toStartWith('"allOf" at properties.a is not supported in strict mode');
    expect(strictSchemaProblem(closed({ a: { $ref: "https://example.com/x.json" } }))).toBe('at properties.a: only a "$ref" within the file ("#/$defs/…") can be used');
    expect(strictSchemaProblem({ anyOf: [closed({})] })).toStartWith("the top level must be an object schema");
  });
});

describe("the answer checked against the schema", () => {
  const load = async (schema: object) => {
    const path = join(tempDir("schema"), "tree.json");
    writeFileSync(path, JSON.stringify(schema));
    return loadOutputSchema(path);
  };

  test("the format sent is the file's schema, strict, named after the file", async () => {
    expect((await load(TREE)).format).toEqual({ type: "json_schema", name: "tree", schema: TREE, strict: true });
  });

  test("a matching answer passes; a mismatch deep in the tree is named by its path", async () => {
    const { mismatch } = await load(TREE);
    const leaf = (name: string, kind: object) => ({ name, kind, children: [] });
    expect(mismatch(JSON.stringify({ root: { ...leaf("a", { file: "x.ts" }), children: [leaf("b", { line: 3 })] }, note: null }))).toBeUndefined();
    expect(mismatch(JSON.stringify({ root: { ...leaf("a", { file: "x.ts" }), children: [leaf("b", { line: 0 })] }, note: null }))).toBe(
      "the answer does not match --output-schema at $.root.children[0].kind.line: Too small: expected number to be >=1",
    );
    expect(mismatch(JSON.stringify({ root: leaf("a", { file: "x.ts" }) }))).toStartWith("the answer does not match --output-schema at $.note:");
    expect(mismatch(JSON.stringify({ root: leaf("a", { path: "x.ts" }), note: null }))).toBe(
      "the answer does not match --output-schema at $.root.kind: matches none of the schemas it may take",
    );
    expect(mismatch("Here is the JSON: {}")).toStartWith("the answer is not JSON (");
  });
});
