import type { AnyTool } from "./tool.ts";
import { readFile } from "./read-file.ts";
import { listDir } from "./list-dir.ts";
import { glob } from "./glob.ts";
import { grep } from "./grep.ts";
import { writeFile } from "./write-file.ts";
import { editFile } from "./edit-file.ts";
import { applyPatch } from "./apply-patch.ts";
import { bash } from "./bash.ts";

/** The coding tools, in the order the model sees them. */
export const codingTools: AnyTool[] = [readFile, listDir, glob, grep, writeFile, editFile, applyPatch, bash];
