import { parseArgs } from "node:util";
import { SANDBOX_MODES, type SandboxMode } from "../sandbox/sandbox-mode.ts";
import { didYouMean, nearest } from "../text/nearest.ts";
import { REASONING_EFFORTS, type ReasoningEffort } from "../wire/reasoning-effort.ts";
import { UsageError } from "../exit/usage-error.ts";
import type { Flags } from "../services/settings.ts";

export type { Flags };

export const SUBCOMMANDS = ["sessions", "inspect", "export", "import", "registry", "doctor", "undo", "mcp", "acp"] as const;

const options = {
  print: { type: "boolean", short: "p" },
  image: { type: "string", short: "i", multiple: true },
  model: { type: "string", short: "m" },
  "base-url": { type: "string" },
  "max-steps": { type: "string" },
  "compact-at": { type: "string" },
  "idle-timeout": { type: "string" },
  timeout: { type: "string" },
  "max-cost": { type: "string" },
  json: { type: "boolean" },
  "output-schema": { type: "string" },
  output: { type: "string", short: "o" },
  allow: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
  "reasoning-effort": { type: "string" },
  ephemeral: { type: "boolean" },
  yolo: { type: "boolean" },
  plan: { type: "boolean" },
  "no-plan": { type: "boolean" },
  sandbox: { type: "string" },
  "no-network": { type: "boolean" },
  network: { type: "boolean" },
  "add-dir": { type: "string", multiple: true },
  continue: { type: "boolean", short: "c" },
  resume: { type: "string", short: "r" },
  "no-instructions": { type: "boolean" },
  "no-project-instructions": { type: "boolean" },
  "no-memory": { type: "boolean" },
  hooks: { type: "string", multiple: true },
  "no-hooks": { type: "boolean" },
  "mcp-config": { type: "string", multiple: true },
  agents: { type: "string" },
  "no-mcp": { type: "boolean" },
  version: { type: "boolean", short: "v" },
  help: { type: "boolean", short: "h" },
} as const;

/** argv (without the executable) → flags. Throws UsageError with a one-line message. */
export function parseFlags(argv: string[]): Flags {
  const first = argv[0];
  if (first && (SUBCOMMANDS as readonly string[]).includes(first)) {
    return { ...parseFlags([]), command: { name: first, args: argv.slice(1) } };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: withNegativeValues(argv, options), options, allowPositionals: true, strict: true, tokens: true });
  } catch (err) {
    throw new UsageError(parseErrorLine((err as Error).message, "see shiro --help", Object.keys(options)));
  }
  const v = parsed.values;
  refuseNearSubcommand(first, parsed.positionals);
  return {
    prompt: parsed.positionals.length ? parsed.positionals.join(" ") : undefined,
    images: (v.image ?? []).map((f) => nonEmpty(f, "--image")!),
    print: v.print ?? false,
    model: nonEmpty(v.model, "--model"),
    baseUrl: v["base-url"] === undefined ? undefined : validUrl(v["base-url"], "--base-url"),
    maxSteps: positiveInt(v["max-steps"], "--max-steps", "model calls"),
    compactAt: positiveInt(v["compact-at"], "--compact-at", "tokens"),
    idleTimeout: positiveSeconds(v["idle-timeout"], "--idle-timeout"),
    timeout: positiveSeconds(v.timeout, "--timeout"),
    maxCost: dollars(v["max-cost"], "--max-cost"),
    json: v.json ?? false,
    outputSchema: nonEmpty(v["output-schema"], "--output-schema"),
    output: nonEmpty(v.output, "--output"),
    // Their order matters (the last matching rule wins), and parseArgs keeps it only in its tokens.
    rules: parsed.tokens.flatMap((t) => (t.kind === "option" && (t.name === "allow" || t.name === "deny") ? [{ decision: t.name, spec: t.value ?? "" }] : [])),
    reasoningEffort: v["reasoning-effort"] === undefined ? undefined : reasoningEffort(v["reasoning-effort"], "--reasoning-effort"),
    ephemeral: v.ephemeral ?? false,
    yolo: v.yolo ?? false,
    ...planFlag(v.plan, v["no-plan"]),
    sandbox: v.sandbox === undefined ? undefined : sandboxMode(v.sandbox, "--sandbox"),
    noNetwork: v["no-network"] ?? false,
    network: v.network ?? false,
    addDirs: (v["add-dir"] ?? []).map((d) => nonEmpty(d, "--add-dir")!),
    continue: v.continue ?? false,
    resume: nonEmpty(v.resume, "--resume"),
    instructionFiles: v["no-instructions"] ? "none" : v["no-project-instructions"] ? "personal" : "all",
    noMemory: v["no-memory"] ?? false,
    hooksFiles: (v.hooks ?? []).map((f) => nonEmpty(f, "--hooks")!),
    noHooks: v["no-hooks"] ?? false,
    mcpConfigs: (v["mcp-config"] ?? []).map((f) => nonEmpty(f, "--mcp-config")!),
    noMcp: v["no-mcp"] ?? false,
    agents: nonEmpty(v.agents, "--agents"),
    version: v.version ?? false,
    help: v.help ?? false,
  };
}

/**
 * `--max-steps -1` as `--max-steps=-1`: node's parser takes a value starting with "-" for a forgotten one
 * ("argument is ambiguous"); a number is the value meant, and its check then says what is wrong with it.
 */
export function withNegativeValues(argv: string[], known: Record<string, { type: string }>): string[] {
  const takesValue = (arg: string) => arg.startsWith("--") && known[arg.slice(2)]?.type === "string";
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (takesValue(arg) && next !== undefined && /^-\.?\d/.test(next)) out.push(`${arg}=${argv[++i]}`);
    else out.push(arg);
  }
  return out;
}

// node's messages span lines and mention internals; keep the first sentence, name the option meant, point to help.
export function parseErrorLine(message: string, see = "see shiro --help", known: readonly string[] = []): string {
  // "--max-steps" last, or followed by another option: the value was forgotten (a negative number never gets here).
  const valueless = /^Option '(-[^' ]+)(?: <value>)?' argument (?:is ambiguous|missing)/.exec(message)?.[1];
  if (valueless) {
    const form = /use '([^']+)'(?: or '([^']+)')?/.exec(message);
    return `${valueless} needs a value${form ? ` (one starting with "-" is written ${form.slice(1).filter(Boolean).join(" or ")})` : ""} (${see})`;
  }
  const first = message.split("\n")[0]!.replace(/\. To specify a positional argument.*$/, "").replace(/\.$/, "");
  const unknown = /^Unknown option '--([^']+)'/.exec(first)?.[1];
  const hint = unknown === undefined ? "" : didYouMean(unknown, known, (name) => `'--${name}'`);
  return `${first}${hint} (${see})`;
}

/**
 * `shiro sesions` would send "sesions" to the model as a prompt: a lone word where a subcommand goes,
 * two edits or fewer from a subcommand's name, is a typo, refused before anything is sent. (Only that
 * close: "refactor" is a prompt, not a misspelt "doctor".)
 */
function refuseNearSubcommand(first: string | undefined, positionals: string[]) {
  if (first === undefined || positionals.length !== 1 || positionals[0] !== first) return;
  const near = nearest(first, SUBCOMMANDS, 2);
  if (near) throw new UsageError(`"${first}" is not a command; did you mean "shiro ${near}"? (to send it as a prompt: shiro -p "${first}")`);
}

function planFlag(plan: boolean | undefined, noPlan: boolean | undefined): { plan?: boolean } {
  if (plan && noPlan) throw new UsageError("--plan and --no-plan contradict each other: give one");
  return plan ? { plan: true } : noPlan ? { plan: false } : {};
}

function nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new UsageError(`${flag} needs a value`);
  return value;
}

function positiveInt(value: string | undefined, flag: string, unit: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive number of ${unit}, got "${value}"`);
  return Number(value);
}

export function sandboxMode(value: string, what: string): SandboxMode {
  if ((SANDBOX_MODES as readonly string[]).includes(value)) return value as SandboxMode;
  throw new UsageError(`${what} must be one of ${SANDBOX_MODES.join(", ")}, got "${value}"`);
}

function reasoningEffort(value: string, what: string): ReasoningEffort {
  if ((REASONING_EFFORTS as readonly string[]).includes(value)) return value as ReasoningEffort;
  throw new UsageError(`${what} must be one of ${REASONING_EFFORTS.join(", ")}, got "${value}"`);
}

function dollars(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const amount = value.replace(/^\$/, "");
  if (!/^\d+(\.\d+)?$/.test(amount) || Number(amount) <= 0) throw new UsageError(`${flag} must be a positive number of US dollars (such as 0.50), got "${value}"`);
  return Number(amount);
}

function positiveSeconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new UsageError(`${flag} must be a positive number of seconds, got "${value}"`);
  return Number(value);
}

export function validUrl(value: string, what: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
    return value.replace(/\/+$/, "");
  } catch {
    throw new UsageError(`${what} must be an http(s) URL, got "${value}"`);
  }
}
