export type RegistryKind = "skill" | "plugin";

/** A registry step declined on purpose: `subject` names the entry (or URL), `rule` says which check. */
export class RegistryRefusal extends Error {
  override name = "RegistryRefusal";
  constructor(
    readonly subject: string,
    readonly rule: string,
  ) {
    // One line whatever a server's error text contains.
    super(`refused ${subject}: ${rule}`.replace(/\s*\n\s*/g, " "));
  }
}

/** How refusals name an entry: `skill "commit-message"`. */
export const entryLabel = (kind: RegistryKind, name: string): string => `${kind} ${JSON.stringify(name)}`;
