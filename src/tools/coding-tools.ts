import type { AnyTool } from "./tool.ts";
import { readFile } from "./files/read-file.ts";
import { listDir } from "./files/list-dir.ts";
import { glob } from "./search/glob.ts";
import { grep } from "./search/grep.ts";
import { writeFile } from "./files/write-file.ts";
import { editFile } from "./files/edit-file.ts";
import { applyPatch } from "./files/apply-patch.ts";
import { bash } from "./shell/bash.ts";
import { bashOutput } from "./shell/bash-output.ts";
import { bashKill } from "./shell/bash-kill.ts";

/** The coding tools, in the order the model sees them. */
export const codingTools: AnyTool[] = [readFile, listDir, glob, grep, writeFile, editFile, applyPatch, bash, bashOutput, bashKill];
