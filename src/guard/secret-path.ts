import { basename, dirname, sep } from "node:path";

/** What these tests need of a session's names (secret-names.ts builds them): said here, so nothing here imports back. */
type Names = { isSecretPath(path: string): boolean; samples: readonly string[] };

const SECRET_NAMES = new Set([
  ".env", ".envrc", ".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials", ".vault-token", "credentials.json", ".lesshst", ".zhistory", ".histfile",
]);
/** Templates committed on purpose: `.env.example` and its kin are not secrets. */
export const ENV_TEMPLATES = ["example", "sample", "template"];
const SECRET_EXTENSIONS = [".pem", ".key", ".p12", ".pfx", ".keystore", ".jks", ".env"];
export const PRIVATE_KEY_PREFIXES = ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];
/** Folders whose every file is a credential (the home's logins), wherever they are. */
export const SECRET_DIRS = [".ssh", ".aws", ".gnupg", ".azure", ".config/gcloud"];
/** Credential stores known by their place in a folder (the home's): `.docker/config.json` but not `config.json`. */
export const SECRET_PLACES = [
  ".cargo/credentials", ".cargo/credentials.toml", ".config/gh/hosts.yml", ".docker/config.json", ".kube/config", ".config/rclone/rclone.conf",
  ".terraform.d/credentials.tfrc.json", ".gem/credentials", ".m2/settings*.xml", ".config/git/credentials",
];
const SAMPLE_SECRETS = [...SECRET_NAMES, ".env.local", "prod.env", ".env_prod", "server.pem", "server.key", "cert.p12", "cert.pfx", "a.keystore", "a.jks", ".bash_history", "x-service-account.json", "terraform.tfstate", ...PRIVATE_KEY_PREFIXES];

const placeRegex = (place: string) => new RegExp(`(?:^|/)${place.replace(/\./g, "\\.").replace(/\*/g, "[^/]*")}$`);
const PLACES = SECRET_PLACES.map(placeRegex);
const DIRS = SECRET_DIRS.map((dir) => new RegExp(`(?:^|/)${dir.replace(/\./g, "\\.")}(?:/|$)`));

/**
 * Whether one absolute path is a secret by shiro's built-in names (docs/secrets.md lists them), in any
 * letter case: the default rules deny it to every tool, the guard never lets anything write it, the
 * sandbox masks it. `.env.example` (and `.sample`, `.template`) and public keys (`id_*.pub`) are not secrets.
 */
export function isSecretPath(path: string): boolean {
  const name = basename(path).toLowerCase();
  if (SECRET_NAMES.has(name) || (name.startsWith(".env.") && !ENV_TEMPLATES.some((t) => name === `.env.${t}`))) return true;
  if (name.startsWith(".env_") || (name.startsWith(".") && name.endsWith("_history"))) return true;
  if (SECRET_EXTENSIONS.some((ext) => name.endsWith(ext))) return true;
  if ((name.includes("service-account") && name.endsWith(".json")) || name.startsWith("terraform.tfstate")) return true;
  if (PRIVATE_KEY_PREFIXES.some((prefix) => name.startsWith(prefix)) && !name.endsWith(".pub")) return true;
  const lower = sep === "/" ? path.toLowerCase() : path.toLowerCase().split(sep).join("/");
  // Every secret folder and place begins with a dot folder (`.ssh`, `.config/gh`…): most paths have none.
  if (!lower.includes("/.")) return false;
  return DIRS.some((dir) => dir.test(lower)) || PLACES.some((place) => place.test(lower));
}

/** A path is secret when it is one as written or where its symlinks lead (by the built-in names, or `names`). */
export const isSecret = (resolved: { absolute: string; real: string }, names?: Names): boolean => {
  const test = names?.isSecretPath ?? isSecretPath;
  return test(resolved.absolute) || test(resolved.real);
};

/**
 * Whether a shell glob in a command (`.e*`, `*.pem`, `id_?sa`) could expand to a secret name. Bare
 * wildcards (`*`, `*.*`) are not counted: they would make every `grep foo *` suspect.
 */
export function globMayNameSecret(word: string, names?: Names): boolean {
  if (!/[*?[]/.test(word)) return false;
  const name = basename(word);
  if (name.replace(/[*?[\]]/g, "").length < 2) return false;
  const source = name.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".").replace(/\[!/g, "[^");
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^${source}$`, "i");
  } catch {
    return false; // an unclosed `[` is literal to the shell, and no secret name has one
  }
  const folder = basename(dirname(word)).toLowerCase();
  const inPlace = SECRET_PLACES.filter((p) => basename(dirname(p)) === folder).map((p) => basename(p).replace("*", ""));
  const inDir = SECRET_DIRS.some((d) => basename(d) === folder) ? ["credentials", "config"] : [];
  // `*.json` alone would make every `jq . *.json` suspect: a JSON secret counts once its name is hinted at.
  const broad = name.replace(/[*?]|\[[^\]]*\]/g, "").toLowerCase() === ".json";
  const samples = [...SAMPLE_SECRETS.filter((s) => !(broad && s.endsWith(".json"))), ...inPlace, ...inDir, ...(names?.samples ?? [])];
  return samples.some((sample) => pattern.test(sample));
}
