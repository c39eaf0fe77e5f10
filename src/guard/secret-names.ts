import { basename } from "node:path";
import { globToRegex } from "../files/gitignore.ts";
import { SECRET_GLOBS } from "./secret-globs.ts";
import { isSecretPath } from "./secret-path.ts";

/**
 * The secret-file names of one session: the built-in ones and config `secretFiles`, compiled once and
 * handed to the guard, the read check, the searches and the sandbox, so all of them agree.
 */
export type SecretNames = {
  isSecretPath(path: string): boolean;
  /** As a search takes them (SECRET_GLOBS and the extra globs, any letter case). */
  globs: readonly string[];
  /** Names the extra globs stand for, for telling whether a shell glob in a command could expand to one. */
  samples: readonly string[];
};

/**
 * `extra` globs without a `/` match a file or folder name anywhere; with one, the path's end
 * (`secrets/*.txt` is `**\/secrets/*.txt`, as a search takes it too).
 */
export function secretNames(extra: readonly string[] = []): SecretNames {
  if (extra.length === 0) return BUILT_IN;
  const globs = extra.map((g) => (g.includes("/") && !g.startsWith("**/") ? `**/${g.replace(/^\/+/, "")}` : g));
  const byName = new RegExp(`^(?:${globs.filter((g) => !g.includes("/")).map(globToRegex).join("|") || "(?!)"})$`, "i");
  const byPath = new RegExp(`^(?:${globs.filter((g) => g.includes("/")).map(globToRegex).join("|") || "(?!)"})$`, "i");
  const matches = (path: string) => path.split("/").some((part) => byName.test(part)) || byPath.test(path.replace(/^\/+/, ""));
  return {
    isSecretPath: (path) => isSecretPath(path) || matches(path),
    globs: [...SECRET_GLOBS, ...globs],
    samples: globs.map((g) => basename(g).replace(/\[!?(.)[^\]]*\]/g, "$1").replace(/[*?]/g, "x")),
  };
}

const BUILT_IN: SecretNames = { isSecretPath, globs: SECRET_GLOBS, samples: [] };
