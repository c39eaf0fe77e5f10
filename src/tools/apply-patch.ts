import { rm } from "node:fs/promises";
import { z } from "zod";
import { defineTool, ToolError, type PreviewContext } from "./tool.ts";
import { displayPath, resolveIn } from "./resolve-path.ts";
import { readTextFile, writeTextFile } from "./text-file.ts";
import { fileDiff, lineChanges } from "./file-diff.ts";
import { parsePatch, patchPaths, PatchParseError, type PatchOp } from "./parse-patch.ts";
import { applyChunks } from "./apply-chunks.ts";

const schema = z.object({
  patch: z.string().min(1).describe('The whole patch, from "*** Begin Patch" to "*** End Patch".'),
});

/** One file's planned change; `after` undefined = delete. `from` is the source of a move. */
type Change = { abs: string; after: string | undefined; from?: string; summary: string; diff: string };

export const applyPatch = defineTool({
  name: "apply_patch",
  description: [
    "Edit files with a patch. Format:",
    "*** Begin Patch",
    "*** Add File: path/new.txt      (every following line starts with +)",
    "*** Delete File: path/old.txt",
    "*** Update File: path/file.ts",
    "*** Move to: path/renamed.ts    (optional, right after Update File)",
    "@@ a line above the change, e.g. a function signature (optional)",
    " unchanged context line (starts with a space)",
    "-removed line",
    "+added line",
    "*** End of File                 (optional: the lines end the file)",
    "*** End Patch",
    "Give about 3 lines of context around each change. Every hunk is checked before anything is written: if one does not match, no file changes.",
  ].join("\n"),
  schema,
  kind: "write",
  subject: (args) => ({ paths: patchPaths(args.patch) }),
  async preview(args, ctx) {
    const changes = await plan(args.patch, ctx).catch(() => undefined);
    return changes?.map((c) => c.diff).join("");
  },
  async run(args, ctx) {
    const changes = await plan(args.patch, ctx);
    for (const change of changes) {
      if (change.after === undefined) await rm(change.abs, { force: true });
      else await writeTextFile(change.abs, change.after, change.from);
    }
    const summaries = changes.filter((c) => c.summary !== "").map((c) => c.summary);
    return { output: `Applied patch:\n${summaries.join("\n")}`, display: changes.map((c) => c.diff).join("") };
  },
});

/** Checks every operation against the files (and against earlier operations of the same patch) without writing. */
async function plan(patch: string, ctx: PreviewContext): Promise<Change[]> {
  let ops: PatchOp[];
  try {
    ops = parsePatch(patch);
  } catch (err) {
    if (err instanceof PatchParseError) throw new ToolError(`Invalid patch. ${err.message} Nothing was changed.`);
    throw err;
  }
  const staged = new Map<string, string | undefined>();
  const current = async (abs: string) => (staged.has(abs) ? staged.get(abs) : await readTextFile(ctx.root, abs));
  const changes: Change[] = [];
  const errors: string[] = [];
  for (const op of ops) {
    const abs = resolveIn(ctx.root, op.path);
    const shown = displayPath(ctx.root, abs);
    try {
      const before = await current(abs);
      if (op.type === "add") {
        if (before !== undefined) throw new ToolError(`Add File ${shown}: the file already exists; use "*** Update File:" to change it.`);
        staged.set(abs, op.content);
        changes.push({ abs, after: op.content, summary: `A ${shown} (+${lineChanges("", op.content).added} lines)`, diff: fileDiff(shown, undefined, op.content) });
      } else if (before === undefined) {
        throw new ToolError(`${op.type === "delete" ? "Delete" : "Update"} File ${shown}: the file does not exist.`);
      } else if (op.type === "delete") {
        staged.set(abs, undefined);
        changes.push({ abs, after: undefined, summary: `D ${shown}`, diff: fileDiff(shown, before, undefined) });
      } else {
        const result = applyChunks(before, op.chunks);
        if (!result.ok) throw new ToolError(`Update File ${shown}: hunk ${result.chunk} did not match — ${result.message}`);
        const { added, removed } = lineChanges(before, result.content);
        const target = op.moveTo === undefined ? abs : resolveIn(ctx.root, op.moveTo);
        if (target === abs) {
          staged.set(abs, result.content);
          changes.push({ abs, after: result.content, summary: `M ${shown} (+${added} −${removed} lines)`, diff: fileDiff(shown, before, result.content) });
          continue;
        }
        const targetShown = displayPath(ctx.root, target);
        if ((await current(target)) !== undefined) throw new ToolError(`Update File ${shown}: cannot move to ${targetShown}, which already exists.`);
        staged.set(target, result.content);
        staged.set(abs, undefined);
        changes.push({ abs: target, after: result.content, from: abs, summary: `R ${shown} → ${targetShown} (+${added} −${removed} lines)`, diff: fileDiff(shown, before, result.content, targetShown) });
        changes.push({ abs, after: undefined, summary: "", diff: "" });
      }
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      errors.push(err.message);
    }
  }
  if (errors.length) throw new ToolError(`The patch was not applied; no file was changed.\n${errors.join("\n")}\nRead the files again and resend the whole patch with corrected hunks.`);
  return changes;
}
