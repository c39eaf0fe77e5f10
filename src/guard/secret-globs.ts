import { ENV_TEMPLATES, PRIVATE_KEY_PREFIXES, SECRET_DIRS, SECRET_PLACES } from "./secret-path.ts";

/**
 * The secret files of secret-path.ts as globs a search takes before it opens anything (ripgrep's
 * `--iglob '!…'`, the JavaScript scan's name filter): matched in any letter case against each file and
 * folder name, `**\/…` against the path. Globs cannot say "but not", so the exceptions (`.env.example`
 * and its kin, public keys `id_*.pub`) are spelled out as every name that remains. A unit test holds
 * them equal to isSecretPath.
 */
export const SECRET_GLOBS: readonly string[] = [
  ".env", ".envrc", ".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".vault-token", "credentials.json", ".lesshst", ".zhistory", ".histfile",
  "*.pem", "*.key", "*.p12", "*.pfx", "*.keystore", "*.jks", "*.env", ".env_*", ".*_history", "*service-account*.json", "terraform.tfstate*",
  ...SECRET_DIRS.map((dir) => (dir.includes("/") ? `**/${dir}` : dir)),
  ...SECRET_PLACES.map((place) => `**/${place}`),
  ...namesBut(".env.", ENV_TEMPLATES),
  ...PRIVATE_KEY_PREFIXES.flatMap((key) => notEndingIn(key, ".pub")),
];

/**
 * `prefix*` except exactly `prefix + rest` for each of `rests`: walking the rests' common prefixes, each
 * one that is no rest itself, each one followed by a character no rest goes on with, and past a rest's end.
 */
function namesBut(prefix: string, rests: readonly string[]): string[] {
  const globs: string[] = [];
  const stems = new Set(rests.flatMap((rest) => [...rest].map((_, i) => rest.slice(0, i))));
  for (const stem of stems) {
    if (!rests.includes(stem)) globs.push(`${prefix}${stem}`);
    const next = [...new Set(rests.filter((r) => r.length > stem.length && r.startsWith(stem)).map((r) => r[stem.length]))].join("");
    globs.push(`${prefix}${stem}[!${next}]*`);
  }
  for (const rest of rests) globs.push(`${prefix}${rest}?*`);
  return globs;
}

/** `prefix*` except names ending in `suffix`: a tail too short to hold it, or one differing from it at some place from the end. */
function notEndingIn(prefix: string, suffix: string): string[] {
  const globs: string[] = [];
  for (let i = 0; i < suffix.length; i++) globs.push(prefix + "?".repeat(i), `${prefix}*[!${suffix[suffix.length - 1 - i]}]${suffix.slice(suffix.length - i)}`);
  return globs;
}
