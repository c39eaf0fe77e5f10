import { MIN_REDACTED_LENGTH, type NamedValue } from "./redact.ts";
import { hasUrlPassword, urlPasswords } from "./secret-values.ts";
import { isKeptOut, isSecretName } from "./secret-var-names.ts";
import { tokensIn } from "./token-formats.ts";

/** shiro's own key: kept from every tool process whatever config says. */
export const API_KEY_VAR = "OPENAI_API_KEY";

/**
 * What config says of variables by name: `pass` (`sandbox.env`, the older `env.pass`) lets one through,
 * `deny` (`sandbox.denyEnv`) keeps one out, `secret` (`secrets.env`) marks one secret as a telling name does.
 */
export type EnvRules = { pass?: readonly string[]; deny?: readonly string[]; secret?: readonly string[] };

/** The rules config.json gives (`sandbox.env` and `env.pass`, `sandbox.denyEnv`, `secrets.env`), and names passed besides (`hooksEnv`). */
export const envRules = (config: { envPass: readonly string[]; denyEnv: readonly string[]; secretEnv: readonly string[] }, alsoPass: readonly string[] = []): EnvRules => ({
  pass: [...config.envPass, ...alsoPass],
  deny: config.denyEnv,
  secret: config.secretEnv,
});

/** Why a variable is kept from tool processes. */
export type WithheldWhy = "the API key" | "denied" | "a secret name" | "a URL password" | "a token" | "not for commands";

export type ToolEnv = {
  /** What a tool process (a command, a hook, an MCP server) starts with. */
  env: Record<string, string>;
  withheld: { name: string; why: WithheldWhy }[];
  /** The values evidence marks secret, for the redactor: passed or not, a command may print them. */
  values: NamedValue[];
};

/**
 * The environment a tool process gets: the person's own less what marks a secret — the API key and any
 * variable holding it, a name that says secret (secret-var-names.ts, or listed in `secrets.env`), a
 * value holding a URL's password or a well-known token (token-formats.ts) — less the names
 * `sandbox.denyEnv` lists and the few that are no secret but no place for a command (sockets, shell
 * start-up). A name `sandbox.env` lists passes though its name or value says secret; the API key never does.
 * A build gets what it reads (NODE_OPTIONS, CC, GITHUB_SHA, RUNNER_TEMP…) as the person set it.
 */
export function toolEnv(env: Readonly<Record<string, string | undefined>>, rules: EnvRules = {}): ToolEnv {
  const apiKey = env[API_KEY_VAR] ?? "";
  const [pass, deny, secret] = [rules.pass, rules.deny, rules.secret].map((names) => new Set(names));
  const out: ToolEnv = { env: {}, withheld: [], values: [] };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const named = isSecretName(name) || secret!.has(name);
    const tokens = tokensIn(value);
    if (named && value.length >= MIN_REDACTED_LENGTH) out.values.push({ name, value });
    for (const found of [...urlPasswords(value), ...tokens]) out.values.push({ name, value: found });
    const why = ((): WithheldWhy | undefined => {
      if (name.toUpperCase() === API_KEY_VAR || holdsKey(value, apiKey)) return "the API key";
      if (deny!.has(name)) return "denied";
      if (pass!.has(name)) return undefined;
      if (named) return "a secret name";
      if (hasUrlPassword(value)) return "a URL password";
      if (tokens.length > 0) return "a token";
      return isKeptOut(name) ? "not for commands" : undefined;
    })();
    if (why) out.withheld.push({ name, why });
    else out.env[name] = value;
  }
  return out;
}

/** The key itself under another name, or inside a longer value (`Bearer sk-…`) once it is long enough to tell. */
const holdsKey = (value: string, key: string) => key !== "" && (value === key || (key.length >= MIN_REDACTED_LENGTH && value.includes(key)));
