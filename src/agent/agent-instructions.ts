import { createNestedLoader } from "../context/nested-loader.ts";
import { nestedSection } from "../context/nested-section.ts";
import type { InstructionFile } from "../session/reduce-session.ts";
import type { LiveSession } from "../store/live-session.ts";
import type { Prompt } from "./load-prompt.ts";

export type AgentInstructionsOptions = {
  live: LiveSession;
  /** The session's folder. */
  root: string;
  /** Project instruction files are read at all (not `--no-project-instructions`, not `--no-instructions`). */
  on: boolean;
  /** Whether a `read_file` of this path would be refused. */
  readDenied?: (absolute: string) => boolean;
  warn: (line: string) => void;
  /** A child's: the files its parent had taken on when it started. */
  inherited?: readonly InstructionFile[];
};

/**
 * The subfolders' instruction files an agent takes on as it works: a child begins with those its
 * parent had (logged again in its own log, so its log alone says what it was sent), then each file
 * of a folder its own calls touch joins, once (nested-loader.ts). They live in the session's log and
 * state, not in its history, so a compaction keeps them and a resume sends them from its first request.
 */
export function agentInstructions(o: AgentInstructionsOptions) {
  const files = () => o.live.state.instructionFiles;
  const record = (file: InstructionFile) => o.live.append({ type: "instructions", ...file, at: new Date().toISOString() });
  if (o.on) for (const file of o.inherited ?? []) if (!files().some((f) => f.path === file.path)) record(file);
  let made: { from: Prompt; count: number; prompt: Prompt } | undefined;
  return {
    /** What a call that ran touched (undefined when project instructions are off). */
    touched: o.on ? createNestedLoader({ root: o.root, loaded: files, ...(o.readDenied ? { readDenied: o.readDenied } : {}), record, warn: o.warn }) : undefined,
    /** The prompt with the files taken on so far after its instructions: the same object until another joins. */
    withFiles(prompt: Prompt): Prompt {
      const count = o.on ? files().length : 0;
      if (count === 0) return prompt;
      if (made?.from !== prompt || made.count !== count) {
        const joined = files().map((f) => (f.cut ? `${f.path} (cut)` : f.path));
        made = { from: prompt, count, prompt: { ...prompt, instructions: `${prompt.instructions}\n\n${nestedSection(files())}`, files: [...prompt.files, ...joined] } };
      }
      return made.prompt;
    },
  };
}
