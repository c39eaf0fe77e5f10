/**
 * `--output-schema` and `-o` through the binary and the strict server: the schema goes out as every
 * request's strict `text.format`, tools still run, stdout holds exactly the answer's JSON (checked
 * here too), a schema the API would refuse is refused before any call, and `-o` writes the answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const SCHEMA = {
  type: "object",
  properties: {
    verdict: { enum: ["pass", "fail"] },
    failures: { type: "array", items: { type: "string" } },
  },
  required: ["verdict", "failures"],
  additionalProperties: false,
};

/** Reads the test report, then answers in the schema from what it read, as a model under the format would. */
const gateModel = (answer: (report: string) => unknown) =>
  sequenceModel([{ name: "read_file", arguments: { path: "report.txt" } }], (input) => {
    const report = visibleOutputs(input).find((o) => o.name === "read_file")?.output ?? "";
    return JSON.stringify(answer(report));
  });
const failuresOf = (report: string) => report.split("\n").filter((line) => line.includes("FAIL")).map((line) => line.replace(/^.*FAIL\s*/, ""));

let server: StrictServer;
let lax: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ defaultModel: gateModel((report) => ({ verdict: failuresOf(report).length ? "fail" : "pass", failures: failuresOf(report) })) });
  // A compatible server that takes the format but does not hold its model to it.
  lax = await startStrictServer({ defaultModel: gateModel(() => ({ verdict: "maybe", failures: [] })), unenforcedFormats: true });
});
afterAll(() => Promise.all([server.stop(), lax.stop()]));

function project(schema: object = SCHEMA): { cwd: string; schema: string } {
  const cwd = tempDir("gate");
  writeFileSync(join(cwd, "report.txt"), "ok   parses dates\nFAIL rounds money\nok   sends mail\n");
  writeFileSync(join(cwd, "verdict.schema.json"), JSON.stringify(schema));
  return { cwd, schema: join(cwd, "verdict.schema.json") };
}

const EXPECTED = { verdict: "fail", failures: ["rounds money"] };
const gate = (args: string[], cwd: string, url = server.url) => runShiro(["-p", ...args, "Gate on report.txt"], { cwd, env: { OPENAI_BASE_URL: url } });

describe("--output-schema", () => {
  test("every request carries the schema as a strict text.format; the loop still runs tools; stdout is exactly the JSON", async () => {
    const p = project();
    const before = server.requests.length;
    const r = await gate(["--output-schema", p.schema], p.cwd);
    expect([r.code, r.stderr]).toEqual([0, expect.stringContaining("→ read_file report.txt")]);
    expect(JSON.parse(r.stdout)).toEqual(EXPECTED);
    expect(r.stdout).toBe(JSON.stringify(EXPECTED) + "\n");
    const requests = server.requests.slice(before);
    expect(requests).toHaveLength(2); // the read, then the answer
    for (const q of requests) expect(q.body.text).toEqual({ format: { type: "json_schema", name: "verdict", schema: SCHEMA, strict: true } });
  });

  test("an answer that does not match (a server that does not enforce the schema): exit 1, the mismatch named, nothing on stdout", async () => {
    const p = project();
    const r = await gate(["--output-schema", p.schema], p.cwd, lax.url);
    expect([r.code, r.stdout]).toEqual([1, ""]);
    expect(r.stderr).toContain(`error: the answer does not match --output-schema at $.verdict: Invalid option: expected one of "pass"|"fail"`);
    const json = await gate(["--json", "--output-schema", p.schema], p.cwd, lax.url);
    const lines = json.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.at(-2)).toMatchObject({ type: "error", code: "output_schema_mismatch", message: expect.stringContaining("$.verdict") });
    expect([json.code, lines.at(-1).status]).toEqual([1, "error"]);
  });

  test("a schema strict mode cannot take is refused before any call, naming the property; one that is not JSON too", async () => {
    const cases: [object | string, string][] = [
      [{ ...SCHEMA, required: ["verdict"] }, `property "failures" of the top-level object is not in "required"`],
      [{ ...SCHEMA, additionalProperties: true }, `the top-level object needs "additionalProperties": false`],
      [{ ...SCHEMA, properties: { ...SCHEMA.properties, meta: { type: "object", properties: { by: { type: "string" } }, required: ["by"] } }, required: [...SCHEMA.required, "meta"] }, `the object at properties.meta needs "additionalProperties": false`],
      [{ type: "array", items: { type: "string" } }, `the top level must be an object schema ("type": "object")`],
      [{ ...SCHEMA, properties: { ...SCHEMA.properties, verdict: { oneOf: [{ const: "pass" }, { const: "fail" }] } } }, `"oneOf" at properties.verdict is not supported in strict mode; use "anyOf"`],
      ["{ not json", "is not JSON"],
    ];
    for (const [schema, named] of cases) {
      const p = project();
      writeFileSync(p.schema, typeof schema === "string" ? schema : JSON.stringify(schema));
      const before = server.requests.length;
      const r = await gate(["--output-schema", p.schema], p.cwd);
      expect([r.code, r.stdout, server.requests.length]).toEqual([2, "", before]);
      expect(r.stderr).toStartWith(`shiro: --output-schema ${p.schema}`);
      expect(r.stderr).toContain(named);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("-o, --output", () => {
  test("the schema's JSON is written to the file as stdout shows it, with --json as without", async () => {
    const p = project();
    const plain = await gate(["--output-schema", p.schema, "-o", join(p.cwd, "out/verdict.json")], p.cwd);
    expect(plain.code).toBe(0);
    expect(readFileSync(join(p.cwd, "out/verdict.json"), "utf8")).toBe(plain.stdout);

    const json = await gate(["--json", "--output-schema", p.schema, "--output", join(p.cwd, "verdict.json")], p.cwd);
    const result = JSON.parse(json.stdout.trim().split("\n").at(-1)!);
    expect([json.code, result.status]).toEqual([0, "done"]);
    expect(JSON.parse(readFileSync(join(p.cwd, "verdict.json"), "utf8"))).toEqual(EXPECTED);
    expect(readFileSync(join(p.cwd, "verdict.json"), "utf8")).toBe(result.text + "\n");
  });

  test("a prose answer is written too; a run that fails to answer writes nothing; a folder is refused up front", async () => {
    const cwd = tempDir("out");
    const echo = await runShiro(["-p", "-o", "answer.txt", "hello"], { cwd, env: { OPENAI_BASE_URL: (await echoServer()).url } });
    expect([echo.code, readFileSync(join(cwd, "answer.txt"), "utf8")]).toEqual([0, echo.stdout]);

    const p = project();
    const failed = await gate(["--output-schema", p.schema, "-o", "verdict.json"], p.cwd, lax.url);
    expect([failed.code, existsSync(join(p.cwd, "verdict.json"))]).toEqual([1, false]);

    const before = server.requests.length;
    const folder = await gate(["-o", p.cwd], p.cwd);
    expect([folder.code, folder.stderr, server.requests.length]).toEqual([2, `shiro: --output ${p.cwd} is a folder; name the file the answer goes to\n`, before]);
  });
});

let echo: StrictServer | undefined;
const echoServer = async () => (echo ??= await startStrictServer());
afterAll(() => echo?.stop());
