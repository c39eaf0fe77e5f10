/**
 * The secret files of secret-path.ts as globs a search takes before it opens anything (ripgrep's
 * `--iglob '!…'`, the JavaScript scan's name filter): matched in any letter case against each file and
 * folder name, `**\/.aws/credentials` against the path. Globs cannot say "but not", so the exceptions
 * (`.env.example`, public keys `id_*.pub`) are spelled out as every name that remains. A unit test holds
 * them equal to isSecretPath.
 */
export const SECRET_GLOBS: readonly string[] = [
  ".env",
  ".netrc",
  ".pgpass",
  "*.pem",
  "*.key",
  "*.p12",
  "*.pfx",
  ".ssh",
  "**/.aws/credentials",
  ...namesBut(".env.", "example"),
  ...["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"].flatMap((key) => notEndingIn(key, ".pub")),
];

/** `prefix*` except exactly `prefix + rest`: every proper prefix of `rest`, a first differing character, or more after it. */
function namesBut(prefix: string, rest: string): string[] {
  const globs = [`${prefix}${rest}?*`];
  for (let i = 0; i < rest.length; i++) globs.push(`${prefix}${rest.slice(0, i)}`, `${prefix}${rest.slice(0, i)}[!${rest[i]}]*`);
  return globs;
}

/** `prefix*` except names ending in `suffix`: a tail too short to hold it, or one differing from it at some place from the end. */
function notEndingIn(prefix: string, suffix: string): string[] {
  const globs: string[] = [];
  for (let i = 0; i < suffix.length; i++) globs.push(prefix + "?".repeat(i), `${prefix}*[!${suffix[suffix.length - 1 - i]}]${suffix.slice(suffix.length - i)}`);
  return globs;
}
