/**
 * What a variable's name says: that its value is a secret (kept from commands, redacted from every
 * output), or that it is no secret but has no place in a command's environment. The values decide
 * nothing here: `NOTE="Why? see me@x.org"` is a note, whatever it looks like (tool-env.ts).
 */

// A whole last word (GITHUB_TOKEN, DB_PASS, SENTRY_DSN), KEY as a whole word anywhere (STRIPE_KEY_LIVE), a telling
// word anywhere (AWS_SESSION_TOKEN, MY_COOKIE_JAR), AWS_*.
const SECRET_LAST_WORD = /(?:^|_)(?:KEY|KEYS|TOKEN|TOKENS|PAT|PASS|AUTH|DSN)$|(?:^|_)KEYS?_/i;
const SECRET_ANYWHERE = /PASSWORD|PASSWD|PASSPHRASE|SECRET|CREDENTIAL|APIKEY|API_KEY|PRIVATE_KEY|AUTHTOKEN|COOKIE|SESSION/i;
const SECRET_PREFIX = /^AWS_/i;

export const isSecretName = (name: string): boolean => SECRET_LAST_WORD.test(name) || SECRET_ANYWHERE.test(name) || SECRET_PREFIX.test(name);

// No secrets, but no use to a command and a way around what holds it: agents' and buses' sockets (an ssh
// agent signs as the person; the sandbox hides /run, Landlock does not stop a socket's connect), a
// desktop's display, the askpass helpers (VS Code's asks the editor for git credentials over a socket),
// what makes bash run code before the command or read it otherwise than the guard did (BASH_ENV runs a
// file first; BASHOPTS=dotglob makes `cat *` read .env; exported functions replace commands by name),
// git settings given in the environment (CI passes an `http.extraheader` credential that way), and
// shiro's own settings.
const KEPT_OUT = new Set([
  "SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS", "XDG_RUNTIME_DIR",
  "KRB5CCNAME", "GNOME_KEYRING_CONTROL", "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "VSCODE_GIT_IPC_HANDLE", "VSCODE_IPC_HOOK_CLI",
  "BASH_ENV", "ENV", "PROMPT_COMMAND", "BASHOPTS", "SHELLOPTS", "CDPATH", "GLOBIGNORE", "PS4", "BASH_XTRACEFD",
  "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
]);
const KEPT_OUT_PATTERN = /^(?:BASH_FUNC_|GIT_CONFIG_KEY_|GIT_CONFIG_VALUE_|SHIRO_)|_ASKPASS$/;

/** A variable that is no secret but stays out of commands (config `sandbox.env` can still let it through). */
export const isKeptOut = (name: string): boolean => KEPT_OUT.has(name) || KEPT_OUT_PATTERN.test(name);
