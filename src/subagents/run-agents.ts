import { z } from "zod";
import { UsageError } from "../exit/usage-error.ts";
import type { AgentDefinition } from "./agent-definition.ts";

// Claude Code's `--agents` shape: { "<name>": { description, prompt, tools?, model? } }.
const runAgentsSchema = z.record(
  z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
  z.strictObject({ description: z.string().min(1), prompt: z.string().min(1), tools: z.array(z.string().min(1)).optional(), model: z.string().min(1).optional() }),
);

/** The agents `--agents '<json>'` defines for this run (CI); a UsageError naming what is wrong otherwise. */
export function parseRunAgents(json: string): AgentDefinition[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new UsageError(`--agents is not JSON (${(err as Error).message}); give an object such as '{"reviewer":{"description":"…","prompt":"…"}}'`);
  }
  const parsed = runAgentsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // A bad name's own message sits inside zod's "invalid key" issue.
    if (issue.code === "invalid_key") throw new UsageError(`--agents: "${String(issue.path.at(-1))}" is not an agent name (lower-case letters, digits, _ and -)`);
    throw new UsageError(`--agents: ${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`);
  }
  return Object.entries(parsed.data).map(([name, a]) => ({
    name,
    description: a.description,
    instructions: a.prompt,
    ...(a.tools ? { tools: a.tools } : {}),
    ...(a.model && a.model !== "inherit" ? { model: a.model } : {}),
    source: "run" as const,
  }));
}
