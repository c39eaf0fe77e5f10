import { expect, test } from "bun:test";
import { z } from "zod";
import { dropNullArguments, toolSchema } from "../../../src/wire/tool-schema.ts";
import { defineTool } from "../../../src/tools/tool.ts";

const editTool = defineTool({
  name: "edit_file",
  description: "Edit a file.",
  kind: "write",
  schema: z.object({
    path: z.string().describe("file path"),
    offset: z.number().int().min(1).optional().describe("line to start at"),
    mode: z.enum(["replace", "append"]).default("replace"),
    edits: z.array(z.object({ old: z.string(), replaceAll: z.boolean().optional() })),
  }),
  subject: (args) => ({ paths: [args.path] }),
  run: async () => ({ output: "" }),
});

test("a zod schema becomes a strict function tool: every property required, optional ones nullable, objects closed", () => {
  // An optional scalar is nullable by a type list (enum values gain null); an int() loses the safe-integer bound zod writes.
  expect(JSON.stringify(toolSchema(editTool))).toBe(
    JSON.stringify({
      type: "function",
      name: "edit_file",
      description: "Edit a file.",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string", description: "file path" },
          offset: { description: "line to start at", type: ["integer", "null"], minimum: 1 },
          mode: { type: ["string", "null"], enum: ["replace", "append", null], description: '(default: "replace")' },
          edits: {
            type: "array",
            items: {
              type: "object",
              properties: { old: { type: "string" }, replaceAll: { type: ["boolean", "null"] } },
              required: ["old", "replaceAll"],
              additionalProperties: false,
            },
          },
        },
        required: ["path", "offset", "mode", "edits"],
        additionalProperties: false,
      },
      strict: true,
    }),
  );
});

test("what a strict model sends for unset fields (nulls) parses with the tool's schema once nulls are dropped", () => {
  const sent = JSON.parse('{"path":"a.ts","offset":null,"mode":null,"edits":[{"old":"x","replaceAll":null}]}');
  expect(editTool.schema.safeParse(sent).success).toBe(false);
  const parsed = editTool.schema.safeParse(dropNullArguments(sent));
  expect(parsed.success).toBe(true);
  expect(parsed.data).toEqual({ path: "a.ts", mode: "replace", edits: [{ old: "x" }] });
});

test("dropNullArguments leaves non-null values, array elements and non-objects alone", () => {
  expect(dropNullArguments({ a: 0, b: "", c: false, d: [null, 1], e: { f: null, g: { h: null, i: 1 } } })).toEqual({
    a: 0,
    b: "",
    c: false,
    d: [null, 1],
    e: { g: { i: 1 } },
  });
  expect(dropNullArguments("text")).toBe("text");
  expect(dropNullArguments(null)).toBe(null);
});

test("a schema strict mode cannot express (an open-ended record) is sent non-strict instead of failing the request", () => {
  const envTool = defineTool({
    name: "set_env",
    description: "Set variables.",
    kind: "meta",
    schema: z.object({ vars: z.record(z.string(), z.string()) }),
    subject: () => ({}),
    run: async () => ({ output: "" }),
  });
  const tool = toolSchema(envTool);
  expect(tool.strict).toBe(false);
  expect(tool.parameters).toMatchObject({ type: "object", properties: { vars: { type: "object" } } });
});

test("an optional object, array or literal is nullable by anyOf, a type list being only for scalars", () => {
  const tool = defineTool({
    name: "shape",
    description: "Shapes.",
    kind: "meta",
    schema: z.object({ at: z.object({ line: z.number().int() }).optional(), tags: z.array(z.string()).optional(), kind: z.literal("x").optional() }),
    subject: () => ({}),
    run: async () => ({ output: "" }),
  });
  const { properties } = toolSchema(tool).parameters as { properties: Record<string, unknown> };
  expect(properties.at).toEqual({ anyOf: [{ type: "object", properties: { line: { type: "integer" } }, required: ["line"], additionalProperties: false }, { type: "null" }] });
  expect(properties.tags).toEqual({ anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }] });
  expect(properties.kind).toEqual({ anyOf: [{ type: "string", const: "x" }, { type: "null" }] });
});

test("a discriminated union becomes anyOf with closed branches", () => {
  const tool = defineTool({
    name: "pick",
    description: "Pick.",
    kind: "meta",
    schema: z.object({ choice: z.discriminatedUnion("k", [z.object({ k: z.literal("a"), n: z.number() }), z.object({ k: z.literal("b") })]) }),
    subject: () => ({}),
    run: async () => ({ output: "" }),
  });
  const params = toolSchema(tool).parameters as { properties: { choice: { anyOf: { additionalProperties: boolean; required: string[] }[] } } };
  expect(params.properties.choice.anyOf.map((b) => [b.additionalProperties, b.required])).toEqual([
    [false, ["k", "n"]],
    [false, ["k"]],
  ]);
  expect(JSON.stringify(params)).not.toContain("oneOf");
});
