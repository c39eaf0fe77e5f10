/**
 * Runs the strict server standalone for the demo, benchmarks and trying shiro by hand (`--help` says how).
 * The first stdout line is the base URL (…/v1); it serves until killed.
 */
import { parseArgs } from "node:util";
import { demoModel, echoModel, shellModel } from "./scripts.ts";
import { startStrictServer } from "./strict-server.ts";

const MODELS = { demo: demoModel, echo: echoModel, shell: shellModel };

const HELP = `Usage: bun test/support/serve.ts [--model demo|echo|shell] [--port N] [--pace MS] [--window MODEL=TOKENS]

A local stand-in for the OpenAI Responses API, answering with a scripted model. Prints its base URL
(http://127.0.0.1:PORT/v1) first, then serves until killed; point shiro at it with OPENAI_BASE_URL.

  --model <name>         demo (the demo job), echo (answers with your words, the default) or
                         shell (runs each prompt with the bash tool)
  --port <n>             listen on this loopback port (default: any free one)
  --pace <ms>            wait this long between streamed events
  --window <model=n>     give a model a context window of n tokens (repeatable)
  -h, --help             print this help`;

/** One line on stderr and exit 2: a bad argument is the caller's to fix, never a stack trace. */
function usage(problem: string): never {
  console.error(`serve: ${problem} (see --help)`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      model: { type: "string", default: "echo" },
      port: { type: "string" },
      pace: { type: "string" },
      window: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  }));
} catch (err) {
  usage((err as Error).message.split("\n")[0]!.replace(/\.$/, ""));
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const model = MODELS[values.model as keyof typeof MODELS];
if (!model) usage(`unknown --model '${values.model}'; use one of: ${Object.keys(MODELS).join(", ")}`);
const windows: Record<string, number> = {};
for (const spec of values.window ?? []) {
  const [name, tokens] = spec.split("=");
  if (!name || !tokens || !Number.isFinite(Number(tokens))) usage(`bad --window '${spec}'; expected MODEL=TOKENS, e.g. tiny-window=3000`);
  windows[name] = Number(tokens);
}
const port = values.port === undefined ? undefined : Number(values.port);
if (port !== undefined && !(Number.isInteger(port) && port >= 1 && port <= 65535)) usage(`--port must be a whole number from 1 to 65535, got '${values.port}'`);

let server;
try {
  server = await startStrictServer({ defaultModel: model, windows, paceMs: values.pace ? Number(values.pace) : undefined, port });
} catch (err) {
  usage(`cannot listen on 127.0.0.1:${port} (${(err as Error).message}); pick another --port, or leave it out for a free one`);
}
console.log(server.url);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    void server.stop().then(() => process.exit(0));
  });
