import type { Check } from "../guard/verdict.ts";
import { folderSignature } from "./folder-signature.ts";
import { installedDir } from "./installed-paths.ts";
import { loadPluginChecks } from "./plugin-checks.ts";

export type LivePluginChecks = {
  /** The checks in force: one array, refilled in place, so a chain holding it always sees the current set. */
  readonly checks: Check[];
  /** Reloads when the plugins folder changed since the last load; otherwise one readdir and a stat per file. */
  refresh(): Promise<void>;
};

/**
 * Installed plugins for a running session. A plugin added or removed mid-session (by `/registry add` or by
 * `shiro registry` in another terminal) applies from the next tool call, not from the next session.
 */
export async function livePluginChecks(home: string, warn: (line: string) => void = () => {}): Promise<LivePluginChecks> {
  const dir = installedDir(home, "plugin");
  const checks: Check[] = [];
  let loadedFor: string | undefined;
  let pending: Promise<void> | undefined;
  const load = async () => {
    const signature = await folderSignature(dir);
    if (signature === loadedFor) return;
    checks.splice(0, checks.length, ...(await loadPluginChecks(home, warn)));
    loadedFor = signature;
  };
  // Parallel tool calls share one reload.
  const refresh = () => (pending ??= load().finally(() => (pending = undefined)));
  await refresh();
  return { checks, refresh };
}
