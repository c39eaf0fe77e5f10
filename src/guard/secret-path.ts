import { basename, dirname, sep } from "node:path";
import type { ResolvedPath } from "./resolve-path.ts";

const SECRET_NAMES = new Set([".env", ".netrc", ".pgpass"]);
const SECRET_EXTENSIONS = [".pem", ".key", ".p12", ".pfx"];
const PRIVATE_KEY_PREFIXES = ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];
const SAMPLE_SECRETS = [".env", ".env.local", "server.pem", "server.key", "cert.p12", "cert.pfx", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".pgpass"];

/**
 * Whether one absolute path is a secret, which the default rules deny to every tool and the guard never
 * lets anything write: `.env`, `.env.*`, `*.pem`, `*.key`, `*.p12`, `*.pfx`, `id_rsa*` and the other
 * private keys, `.netrc`, `.pgpass`, `.aws/credentials`, anything under `.ssh/` — in any letter case.
 * `.env.example` and public keys (`id_*.pub`) are not secrets.
 */
export function isSecretPath(path: string): boolean {
  const name = basename(path).toLowerCase();
  if (SECRET_NAMES.has(name) || (name.startsWith(".env.") && name !== ".env.example")) return true;
  if (SECRET_EXTENSIONS.some((ext) => name.endsWith(ext))) return true;
  if (PRIVATE_KEY_PREFIXES.some((prefix) => name.startsWith(prefix)) && !name.endsWith(".pub")) return true;
  const folders = path.toLowerCase().split(sep).slice(0, -1);
  if (folders.at(-1) === ".aws" && name === "credentials") return true;
  return folders.includes(".ssh") || name === ".ssh";
}

/** A path is secret when it is one as written or where its symlinks lead. */
export const isSecret = (resolved: ResolvedPath): boolean => isSecretPath(resolved.absolute) || isSecretPath(resolved.real);

/**
 * Whether a shell glob in a command (`.e*`, `*.pem`, `id_?sa`) could expand to a secret name. Bare
 * wildcards (`*`, `*.*`) are not counted: they would make every `grep foo *` suspect.
 */
export function globMayNameSecret(word: string): boolean {
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
  const samples = basename(dirname(word)).toLowerCase() === ".aws" ? [...SAMPLE_SECRETS, "credentials"] : SAMPLE_SECRETS;
  return samples.some((sample) => pattern.test(sample));
}
