import { rm, stat } from "node:fs/promises";
import { nameProblem } from "./check-name.ts";
import { installedBodyPath, originPath } from "./installed-paths.ts";
import { RegistryRefusal, entryLabel, type RegistryKind } from "./refusal.ts";

/** Whether `name` of `kind` is installed; the name is checked first so it cannot point outside its folder. */
export async function isInstalled(home: string, kind: RegistryKind, name: string): Promise<boolean> {
  if (nameProblem(name)) return false;
  return stat(installedBodyPath(home, kind, name)).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** Deletes an installed body and its origin record. Body first, so a half-done remove leaves no live body. */
export async function removeInstalled(home: string, kind: RegistryKind, name: string): Promise<void> {
  const badName = nameProblem(name);
  if (badName) throw new RegistryRefusal(entryLabel(kind, name), badName);
  if (!(await isInstalled(home, kind, name))) throw new RegistryRefusal(entryLabel(kind, name), "it is not installed");
  await rm(installedBodyPath(home, kind, name), { force: true });
  await rm(originPath(home, kind, name), { force: true });
}
