import type { RegistryIndex } from "./index-schema.ts";
import type { Installed } from "./list-installed.ts";
import type { RegistryKind } from "./refusal.ts";

export const LIST_HEADER = ["KIND", "NAME", "STATE", "VERSION", "DESCRIPTION"];

const KINDS: RegistryKind[] = ["skill", "plugin"];

/** A body's version, as far as the format has one: the first 12 hex digits of its sha256. */
const version = (sha256: string | undefined) => sha256?.slice(0, 12) ?? "-";

/**
 * The rows of `registry list` and `registry search`: the entries matching every word of `query` (in any
 * order, in the name, description or author). An installed entry is described by its installed file, which is
 * what the model sees, whatever the index says now; a refused entry shows why instead of a description.
 */
export function listRows(index: RegistryIndex, installed: readonly Installed[], query: string): string[][] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (...texts: string[]) => words.every((word) => texts.join(" ").toLowerCase().includes(word));
  const rows: string[][] = [];
  for (const kind of KINDS) {
    for (const item of kind === "skill" ? index.skills : index.plugins) {
      if (!item.ok) {
        if (matches(item.name)) rows.push([kind, item.name, "refused", "-", item.reason]);
        continue;
      }
      const entry = item.entry;
      const local = installed.find((candidate) => candidate.kind === kind && candidate.name === entry.name);
      if (!matches(entry.name, entry.description, entry.author ?? "", local?.description ?? "")) continue;
      if (!local) {
        rows.push([kind, entry.name, "-", version(entry.sha256), entry.description]);
        continue;
      }
      // Without a pin the index promises no particular body, so there is nothing to differ from.
      const state = entry.sha256 && entry.sha256 !== local.sha256 ? "installed, index differs" : "installed";
      rows.push([kind, entry.name, state, version(local.sha256), local.description]);
    }
  }
  return rows;
}
