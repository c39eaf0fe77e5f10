import { isAbsolute, relative, resolve, sep } from "node:path";

/** Resolves a path the model gave against the project root (whether it may go outside is the gate's call). */
export const resolveIn = (root: string, path: string): string => resolve(root, path);

/** How a path is shown back to the model: relative to the root when inside it, absolute otherwise. */
export function displayPath(root: string, absolute: string): string {
  const rel = relative(root, absolute);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return absolute;
  return rel.split(sep).join("/");
}
