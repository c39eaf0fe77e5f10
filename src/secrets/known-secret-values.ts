import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { NamedValue } from "./redact.ts";
import { SECRET_DIRS } from "../guard/secret-path.ts";
import { filesIn, homeStores } from "../sandbox/find-secrets.ts";
import { createSecretScanner } from "../sandbox/secret-scanner.ts";
import { isInside } from "../files/project-paths.ts";
import { gitDirsOf } from "../guard/git-dirs.ts";
import { createHeadSecretValues } from "./head-secret-values.ts";
import { createSecretFileValues, type SecretFile } from "./secret-file-values.ts";
import { gitConfigSecrets, secretValues } from "./secret-values.ts";

const RELIST_MS = 2000;

export type KnownSecretsOptions = {
  root: string;
  home: string;
  isSecretPath: (path: string) => boolean;
  /** What evidence marks secret in the environment (tool-env.ts): never a value only for how it looks. */
  envValues: readonly NamedValue[];
  /** The project's secret files, from a scan shared with the sandbox; a scanner of its own when absent. */
  projectSecrets?: () => string[];
};

/**
 * Every secret value shiro knows of, for the redactor: what the project's and the home's secret files
 * hold (a hard link, copy, git object or archive of one then shows redacted), the tokens in the
 * project's `.git/config` remote URLs, the values committed at HEAD, and the environment's secret values.
 * Cheap to call again: files are read only when they changed (secret-file-values.ts).
 */
export function createKnownSecretValues(opts: KnownSecretsOptions): () => NamedValue[] {
  const projectSecrets = opts.projectSecrets ?? ((scanner) => () => scanner.scan().secrets)(createSecretScanner(opts.root, opts.isSecretPath));
  const fileValues = createSecretFileValues();
  const headValues = createHeadSecretValues(opts.root, opts.isSecretPath);
  const label = (path: string) => (isInside(path, opts.root) ? relative(opts.root, path) : isInside(path, opts.home) ? `~/${relative(opts.home, path)}` : path);
  const secretFile = (path: string): SecretFile => ({ path, label: label(path), parse: secretValues });
  const list = (secrets: readonly string[]) => {
    const home = [...names(opts.home).map((n) => join(opts.home, n)).filter(opts.isSecretPath), ...homeStores(opts.home), ...SECRET_DIRS.flatMap((d) => filesIn(join(opts.home, d)))];
    const files = [...new Set([...secrets.flatMap(filesIn), ...home])].map(secretFile);
    files.push({ path: join(gitDirsOf(join(opts.root, ".git")).common, "config"), label: ".git/config", parse: (_, text) => gitConfigSecrets(text) });
    return files;
  };
  // Which files hold secrets is listed again when the project's change, or after a moment (the home's change
  // only by the person's hand: no command or tool may write there); what each holds is checked on every call.
  let listed: { at: number; key: string; files: SecretFile[] } | undefined;
  return () => {
    const secrets = projectSecrets();
    const key = secrets.join("\0");
    if (!listed || listed.key !== key || Date.now() - listed.at > RELIST_MS) listed = { at: Date.now(), key, files: list(secrets) };
    return [...opts.envValues, ...fileValues(listed.files), ...headValues()];
  };
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
