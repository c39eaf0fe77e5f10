import { createRedactor } from "../../src/secrets/redact.ts";
import { toolEnv } from "../../src/secrets/tool-env.ts";

/** What the runtime hands the loop, for tests whose tools run no process and print no secret. */
export const noSecrets = { host: { env: {}, redactor: createRedactor([]) } };

/** The environment the runtime gives tool processes: this test process's own, without its secrets. */
export const testToolEnv = toolEnv(process.env).env;
