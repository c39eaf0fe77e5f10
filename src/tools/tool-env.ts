/** A variable kept from tool processes; its value is what the redactor hides in their output. */
export type HiddenVar = { name: string; value: string };

export type ToolEnv = { env: Record<string, string>; hidden: HiddenVar[] };

/** shiro's own key: hidden whatever `sandbox.env` says. */
export const API_KEY_VAR = "OPENAI_API_KEY";

// What a command needs to find its tools and talk to a terminal. EDITOR/VISUAL name a program the person
// chose (git and crontab fall back to vi without them) and hold nothing secret; git's identity variables
// let a commit work when the home's .gitconfig is out of reach.
const STANDARD = new Set([
  "HOME", "PATH", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "COLORTERM", "TZ", "TMPDIR", "PWD", "COLUMNS", "LINES",
  "NO_COLOR", "FORCE_COLOR", "CI", "EDITOR", "VISUAL",
  "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
]);

// Where toolchains live: passed only when the value is an absolute path (a locator holding anything else
// is not what its name says). XDG_RUNTIME_DIR stays out: it is where agent and bus sockets live.
const LOCATORS = new Set([
  "CARGO_HOME", "RUSTUP_HOME", "GOPATH", "GOROOT", "GOBIN", "GOMODCACHE", "NVM_DIR", "NVM_BIN", "PYENV_ROOT", "RBENV_ROOT", "BUN_INSTALL",
  "DENO_INSTALL", "PNPM_HOME", "VOLTA_HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "JAVA_HOME", "ANDROID_HOME", "ANDROID_SDK_ROOT", "GEM_HOME",
  "GEM_PATH", "SDKMAN_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
]);

// Names that say "secret": their values are redacted however they look (other hidden values only when they
// look like secrets, secret-values.ts). A whole last word (GITHUB_TOKEN, DB_PASS), a telling word anywhere, AWS_*.
const SECRET_LAST_WORD = /(?:^|_)(?:KEY|KEYS|TOKEN|TOKENS|PAT|PASS|AUTH)$/i;
const SECRET_ANYWHERE = /PASSWORD|PASSWD|PASSPHRASE|SECRET|CREDENTIAL|APIKEY|API_KEY|PRIVATE_KEY/i;
const SECRET_PREFIX = /^AWS_/i;

export const isSecretName = (name: string): boolean => SECRET_LAST_WORD.test(name) || SECRET_ANYWHERE.test(name) || SECRET_PREFIX.test(name);

/** Whether a command may see the variable without being told to (config `sandbox.env`): an allow-list, not a guess at secrets. */
export function isStandardVar(name: string, value: string): boolean {
  if (STANDARD.has(name) || name.startsWith("LC_")) return true;
  return LOCATORS.has(name) && value.startsWith("/");
}

/**
 * The environment a tool's process gets: only the standard variables and those named in `pass` (config
 * `sandbox.env`, or the older `env.pass`); everything else is hidden. The API key never passes, nor does
 * any variable holding the same value under another name.
 */
export function toolEnv(env: Readonly<Record<string, string | undefined>>, pass: readonly string[] = []): ToolEnv {
  const apiKey = env[API_KEY_VAR];
  const passed = new Set(pass);
  const kept: Record<string, string> = {};
  const hidden: HiddenVar[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const isKey = name.toUpperCase() === API_KEY_VAR || (apiKey !== undefined && apiKey !== "" && value === apiKey);
    if (!isKey && (passed.has(name) || isStandardVar(name, value))) kept[name] = value;
    else hidden.push({ name, value });
  }
  return { env: kept, hidden };
}
