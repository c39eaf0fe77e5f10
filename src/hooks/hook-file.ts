import { basename, dirname } from "node:path";
import { z } from "zod";
import { HOOK_EVENTS, type HookEventName } from "../session/hook-run.ts";
import { readJson, type ReadResult } from "../store/read-json.ts";
import { hookFileSchema, type HooksConfig } from "./hook-config.ts";

/**
 * A file of hooks as read: `hooks` as written (what an approval's hash covers, so any change asks
 * again), in shiro's shape, and what of it shiro does not run, in words (Claude Code's files only).
 */
export type HookFile = { raw: unknown; hooks: HooksConfig; notRun: string[] };

/**
 * Claude Code's settings (`.claude/settings.json`, `.claude/settings.local.json`): its `hooks` read
 * in Claude Code's shape, every other key (permissions, env, model…) left to Claude Code. It is not
 * shiro's file, so what shiro cannot run (an event it has no moment for, a `"prompt"` hook) is
 * said and passed over rather than failing the whole file; a shape that is wrong is still an error.
 */
// Loose objects: a key shiro does not read is kept, not stripped, so the approval's hash covers it too.
const claudeEntry = z.looseObject({ type: z.string(), command: z.string().min(1).optional(), timeout: z.number().positive().optional() });
const claudeSettings = z.object({ hooks: z.record(z.string(), z.array(z.looseObject({ matcher: z.string().optional(), hooks: z.array(claudeEntry) }))).optional() });

/** Whether a hooks file is Claude Code's settings (in a `.claude` folder) rather than shiro's closed shape. */
export const isClaudeSettings = (path: string) => basename(dirname(path)) === ".claude";

/** Reads a hooks file: shiro's (`.shiro/settings.json`, a `--hooks` file) strictly, Claude Code's by its own shape. */
export async function readHookFile(path: string): Promise<ReadResult<HookFile>> {
  if (!isClaudeSettings(path)) {
    const read = await readJson(path, hookFileSchema);
    return read.ok ? { ok: true, value: { raw: read.value.hooks, hooks: read.value.hooks ?? {}, notRun: [] } } : read;
  }
  const read = await readJson(path, claudeSettings);
  if (!read.ok) return read;
  const hooks: HooksConfig = {};
  const notRun: string[] = [];
  for (const [event, groups] of Object.entries(read.value.hooks ?? {})) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      notRun.push(`${event} hooks (shiro has no such moment)`);
      continue;
    }
    const runs = (h: z.infer<typeof claudeEntry>) => h.type === "command" && h.command !== undefined;
    const dropped = groups.flatMap((group) => group.hooks).filter((h) => !runs(h));
    if (dropped.length) notRun.push(`${dropped.length} ${event} hook${dropped.length > 1 ? "s" : ""} of type ${[...new Set(dropped.map((h) => JSON.stringify(h.type)))].join(", ")} (only "command" hooks run)`);
    hooks[event as HookEventName] = groups.map((group) => ({
      ...(group.matcher !== undefined ? { matcher: group.matcher } : {}),
      hooks: group.hooks.filter(runs).map((h) => ({ type: "command" as const, command: h.command!, ...(h.timeout !== undefined ? { timeout: h.timeout } : {}) })),
    }));
  }
  return { ok: true, value: { raw: read.value.hooks, hooks, notRun } };
}
