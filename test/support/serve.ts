/**
 * Runs the strict server standalone for the demo and benchmarks:
 *   bun test/support/serve.ts [--model demo|echo|shell] [--pace MS] [--window MODEL=TOKENS]
 * The first stdout line is the base URL (…/v1); it serves until killed.
 */
import { parseArgs } from "node:util";
import { demoModel, echoModel, shellModel } from "./scripts.ts";
import { startStrictServer } from "./strict-server.ts";

const MODELS = { demo: demoModel, echo: echoModel, shell: shellModel };

const { values } = parseArgs({
  options: {
    model: { type: "string", default: "echo" },
    pace: { type: "string" },
    window: { type: "string", multiple: true },
  },
});

const model = MODELS[values.model as keyof typeof MODELS];
if (!model) {
  console.error(`serve: unknown --model '${values.model}'; use one of: ${Object.keys(MODELS).join(", ")}`);
  process.exit(2);
}
const windows: Record<string, number> = {};
for (const spec of values.window ?? []) {
  const [name, tokens] = spec.split("=");
  if (!name || !tokens || !Number.isFinite(Number(tokens))) {
    console.error(`serve: bad --window '${spec}'; expected MODEL=TOKENS, e.g. tiny-window=3000`);
    process.exit(2);
  }
  windows[name] = Number(tokens);
}

const server = await startStrictServer({ defaultModel: model, windows, paceMs: values.pace ? Number(values.pace) : undefined });
console.log(server.url);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void server.stop().then(() => process.exit(0));
  });
