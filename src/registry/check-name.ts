import { LIMITS, NAME_PATTERN } from "./limits.ts";

/** Why `name` cannot be a registry name, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name.length > LIMITS.nameLength) return `name is ${name.length} characters, over the ${LIMITS.nameLength} allowed`;
  if (!NAME_PATTERN.test(name)) return "name must be lowercase letters, digits and dashes (^[a-z0-9][a-z0-9-]*$)";
  return undefined;
}
