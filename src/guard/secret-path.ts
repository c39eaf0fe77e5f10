import { basename, sep } from "node:path";
import type { ResolvedPath } from "./resolve-path.ts";

/** Names the default rules deny to every tool and the guard never lets anything write (any letter case). */
export const SECRET_PATTERNS = [".env", ".env.*", "*.pem", "*.key", "id_rsa*", "~/.ssh/**"] as const;

const SAMPLE_SECRETS = [".env", ".env.local", "server.pem", "server.key", "id_rsa", "id_rsa.pub"];

/** Whether one absolute path is a secret: judged on its name, case-insensitively, and on any `.ssh` folder. */
export function isSecretPath(path: string): boolean {
  const name = basename(path).toLowerCase();
  if (name === ".env" || (name.startsWith(".env.") && name !== ".env.example")) return true;
  if (name.endsWith(".pem") || name.endsWith(".key") || name.startsWith("id_rsa")) return true;
  return path.toLowerCase().split(sep).slice(0, -1).includes(".ssh") || name === ".ssh";
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
  return SAMPLE_SECRETS.some((sample) => pattern.test(sample));
}
