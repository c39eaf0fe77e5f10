import { lstatSync, realpathSync } from "node:fs";
import type { ToolContext } from "../tool.ts";
import { isInside } from "../../files/project-paths.ts";

/**
 * What a listing (glob, list_dir) says beside an entry no read of it would get past: a secret file or
 * one a rule denies, and a symlink leading out of the project. Its name is shown, as `ls` would show
 * it; its contents stay unread. Empty for everything else.
 */
export function entryNote(ctx: Pick<ToolContext, "root" | "readDenied">, abs: string): string {
  if (ctx.readDenied?.(abs)) return "  [read denied]";
  try {
    if (lstatSync(abs).isSymbolicLink() && !isInside(realpathSync(abs), realpathSync(ctx.root))) return "  [link out of the project]";
  } catch {
    // Gone since the walk listed it: nothing to say.
  }
  return "";
}
