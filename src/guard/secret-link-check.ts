import { isAbsolute, join, relative } from "node:path";
import type { Check } from "./verdict.ts";

/**
 * A file tool's read or write of a hard link to a secret file (`ln .env notes.txt`, made before the
 * run): another name for the secret's bytes, refused as the secret is, whatever its own name says.
 * `linkOf` answers which secret a path is a link of (the sandbox knows the secrets by identity).
 */
export function secretLinkCheck(linkOf: (path: string, root: string) => string | undefined): Check {
  return (call) => {
    if (call.kind !== "read" && call.kind !== "write") return undefined;
    for (const path of call.subject.paths ?? []) {
      const secret = linkOf(isAbsolute(path) ? path : join(call.root, path), call.root);
      if (secret === undefined) continue;
      const shown = relative(call.root, secret);
      return { decision: "deny", reason: `${path} is a hard link to the secret file ${shown.startsWith("..") ? secret : shown}: another name for its bytes, refused as it is`, rule: "guard: secret files" };
    }
    return undefined;
  };
}
