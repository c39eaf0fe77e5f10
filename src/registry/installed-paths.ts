import { join } from "node:path";
import type { RegistryKind } from "./refusal.ts";

/** `$SHIRO_HOME/registry/skills` or `.../plugins`. */
export const installedDir = (home: string, kind: RegistryKind): string => join(home, "registry", `${kind}s`);

/** The installed body: `<name>.md` for a skill, `<name>.json` for a plugin. Callers check the name first. */
export const installedBodyPath = (home: string, kind: RegistryKind, name: string): string =>
  join(installedDir(home, kind), `${name}.${kind === "skill" ? "md" : "json"}`);

/** Where it came from, beside the body; names cannot contain dots, so this never collides with a body. */
export const originPath = (home: string, kind: RegistryKind, name: string): string =>
  join(installedDir(home, kind), `${name}.origin.json`);
