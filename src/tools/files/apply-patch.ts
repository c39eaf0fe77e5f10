import { z } from "zod";
import { defineTool, ToolError, type ToolContext } from "../tool.ts";
import { displayPath, modelPath } from "../../files/project-paths.ts";
import { openFile, type FileSlot } from "./file-slot.ts";
import { commitThrough } from "./commit-through.ts";
import { editableText, editedBytes } from "./editable-text.ts";
import { fileDiff, lineChanges } from "./file-diff.ts";
import { parsePatch, patchPaths, PatchParseError, type PatchOp } from "./parse-patch.ts";
import { patchContent } from "./patch-content.ts";
import { restoreWrite } from "./write-content.ts";
import { plural } from "../../text/plural.ts";

const schema = z.object({
  patch: z.string().min(1),
});

/** A file's text as the patch has it so far, with what writing it back keeps: its byte-order mark and mode. */
type Contents = { text: string; bom: boolean; mode: number };
/** One file's planned change; `after` undefined = delete. */
type Change = { slot: FileSlot; shown: string; after: Contents | undefined; summary: string; diff: string };

const LABEL = { add: "Add File", delete: "Delete File", update: "Update File" } as const;

export const applyPatch = defineTool({
  name: "apply_patch",
  description: [
    "Edit files with a patch:",
    "*** Begin Patch",
    "*** Add File: new.txt (then + before every line)",
    "*** Delete File: old.txt",
    "*** Update File: file.ts",
    "*** Move to: renamed.ts (optional, right after Update File)",
    "@@ a line above the change, e.g. its function (optional)",
    " context line",
    "-removed line",
    "+added line",
    "*** End of File (optional: the lines end the file)",
    "*** End Patch",
    "~3 lines of context around each change. If a hunk does not match, no file changes.",
  ].join("\n"),
  schema,
  kind: "write",
  subject: (args) => ({ paths: patchPaths(args.patch) }),
  async preview(args, ctx) {
    const planned = await plan(args.patch, ctx).catch(() => undefined);
    planned?.close();
    return planned?.changes.map((c) => c.diff).join("");
  },
  async run(args, ctx) {
    const { changes, close } = await plan(args.patch, ctx);
    try {
      await commitThrough(ctx, changes.map(({ slot, shown, after }) => (after ? { slot, shown, data: editedBytes(after.text, after.bom), mode: after.mode } : { slot, shown, remove: true })));
    } finally {
      close();
    }
    const summaries = changes.filter((c) => c.summary !== "").map((c) => c.summary);
    return { output: `Applied patch:\n${summaries.join("\n")}`, display: changes.map((c) => c.diff).join("") };
  },
});

/**
 * Checks every operation against the files (and against earlier operations of the same patch) without
 * writing. Each file is opened through its folder (file-slot.ts), which the write then goes through.
 */
async function plan(patch: string, ctx: Pick<ToolContext, "root" | "writeRefused" | "redactions" | "files">): Promise<{ changes: Change[]; close(): void }> {
  let ops: PatchOp[];
  try {
    ops = parsePatch(patch);
  } catch (err) {
    if (err instanceof PatchParseError) throw new ToolError(`Invalid patch. ${err.message} Nothing was changed.`);
    throw err;
  }
  const slots: FileSlot[] = [];
  const close = () => slots.forEach((slot) => slot.close());
  const open = async (path: string) => {
    const target = await openFile(ctx, path);
    slots.push(target.slot);
    return target;
  };
  // What each file holds once the operations before have run, keyed by where it really is.
  const staged = new Map<string, Contents | undefined>();
  const current = ({ slot, shown, file }: Awaited<ReturnType<typeof open>>): Contents | undefined =>
    staged.has(slot.path) ? staged.get(slot.path) : file && { ...editableText(file.bytes, shown), mode: file.mode };
  const changes: Change[] = [];
  const errors: string[] = [];
  const redactions = ctx.redactions ?? (() => []);
  try {
    for (const op of ops) {
      const named = displayPath(ctx.root, modelPath(ctx.root, op.path));
      try {
        const opened = await open(op.path);
        const { slot, shown } = opened;
        const before = current(opened);
        if (op.type === "add") {
          if (before !== undefined) throw new ToolError('the file already exists; use "*** Update File:" to change it.');
          // A new file holds no secret: a marker in it could only land as it is, so it is refused.
          const after = { text: restoreWrite(op.content, undefined, redactions, shown), bom: false, mode: 0o644 };
          staged.set(slot.path, after);
          changes.push({ slot, shown, after, summary: `A ${shown} (+${plural(lineChanges("", op.content).added, "line")})`, diff: fileDiff(shown, undefined, op.content) });
        } else if (before === undefined) {
          throw new ToolError("the file does not exist.");
        } else if (op.type === "delete") {
          staged.set(slot.path, undefined);
          changes.push({ slot, shown, after: undefined, summary: `D ${shown}`, diff: fileDiff(shown, before.text, undefined) });
        } else {
          // Matched on the file as the model was shown it; the secrets its markers stood for put back.
          const result = patchContent(before.text, op.chunks, redactions, shown);
          if (!result.ok) throw new ToolError(`hunk ${result.chunk} did not match — ${result.message}`);
          const after = { ...before, text: result.content };
          const { added, removed } = lineChanges(before.text, after.text);
          const target = op.moveTo === undefined ? opened : await open(op.moveTo);
          if (target.slot.path === slot.path) {
            staged.set(slot.path, after);
            changes.push({ slot, shown, after, summary: `M ${shown} (+${added} −${removed} lines)`, diff: fileDiff(shown, before.text, after.text) });
            continue;
          }
          if (current(target) !== undefined) throw new ToolError(`cannot move to ${target.shown}, which already exists.`);
          staged.set(target.slot.path, after);
          staged.set(slot.path, undefined);
          const summary = `R ${shown} → ${target.shown} (+${added} −${removed} lines)`;
          changes.push({ slot: target.slot, shown: target.shown, after, summary, diff: fileDiff(shown, before.text, after.text, target.shown) });
          changes.push({ slot, shown, after: undefined, summary: "", diff: "" });
        }
      } catch (err) {
        if (!(err instanceof ToolError)) throw err;
        errors.push(`${LABEL[op.type]} ${named}: ${err.message}`);
      }
    }
  } catch (err) {
    close();
    throw err;
  }
  if (errors.length) {
    close();
    throw new ToolError(`The patch was not applied; no file was changed.\n${errors.join("\n")}\nRead the files again and resend the whole patch with corrected hunks.`);
  }
  return { changes, close };
}
