import { globToRegex } from "../../files/gitignore.ts";

/** Whether a walked entry is one a search leaves unopened: by its name, or by its path for a glob with a `/`. */
export type SecretTest = (name: string, path: string) => boolean;

/** Compiles ToolContext.secretGlobs (any letter case, as ripgrep's `--iglob` takes them) into one test per entry. */
export function secretTest(globs: readonly string[] = []): SecretTest {
  const compile = (list: string[]) => (list.length ? new RegExp(`^(?:${list.map(globToRegex).join("|")})$`, "i") : undefined);
  const byName = compile(globs.filter((g) => !g.includes("/")));
  const byPath = compile(globs.filter((g) => g.includes("/")));
  return (name, path) => (byName?.test(name) ?? false) || (byPath?.test(path) ?? false);
}
