/** A variable kept from tool processes; its value is what the redactor hides in their output. */
export type HiddenVar = { name: string; value: string };

export type ToolEnv = { env: Record<string, string>; hidden: HiddenVar[] };

/** shiro's own key: hidden whatever `env.pass` says. */
export const API_KEY_VAR = "OPENAI_API_KEY";

// Names that say "secret", in any letter case: a whole last word (GITHUB_TOKEN, DB_PASS, but not
// GIT_ASKPASS or TOKENIZERS_PARALLELISM), a telling word anywhere, or AWS_* (region and profile too:
// simpler to hide them all than to tell them apart).
const SECRET_LAST_WORD = /(?:^|_)(?:KEY|KEYS|TOKEN|TOKENS|PAT|PASS|AUTH)$/i;
const SECRET_ANYWHERE = /PASSWORD|PASSWD|PASSPHRASE|SECRET|CREDENTIAL|APIKEY|API_KEY|PRIVATE_KEY/i;
const SECRET_PREFIX = /^AWS_/i;

export const isSecretName = (name: string): boolean => SECRET_LAST_WORD.test(name) || SECRET_ANYWHERE.test(name) || SECRET_PREFIX.test(name);

/**
 * The environment a tool's process gets: `env` without the variables whose names look secret, except
 * those named in `pass` (config `env.pass`). The API key never passes, nor does any variable holding
 * the same value under another name.
 */
export function toolEnv(env: Readonly<Record<string, string | undefined>>, pass: readonly string[] = []): ToolEnv {
  const apiKey = env[API_KEY_VAR];
  const passed = new Set(pass);
  const kept: Record<string, string> = {};
  const hidden: HiddenVar[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const isKey = name.toUpperCase() === API_KEY_VAR || (apiKey !== undefined && apiKey !== "" && value === apiKey);
    if (isKey || (isSecretName(name) && !passed.has(name))) hidden.push({ name, value });
    else kept[name] = value;
  }
  return { env: kept, hidden };
}
