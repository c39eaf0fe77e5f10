import type { FunctionTool } from "openai/resources/responses/responses";
import { systemPrompt } from "../agent/system-prompt.ts";
import type { Notebook } from "../agent/notebook.ts";
import { loadAgentsMd } from "../context/agents-md.ts";
import { memorySection } from "../context/memory-section.ts";
import { loadSkills } from "../registry/load-skills.ts";
import { createSkillTool } from "../registry/skill-tool.ts";
import { skillsInstructions } from "../registry/skills-instructions.ts";
import { createMemoryStore, type MemoryStore } from "../store/memory-store.ts";
import { codingTools } from "../tools/index.ts";
import { createForgetTool } from "../tools/forget.ts";
import { createRecallTool } from "../tools/recall.ts";
import { createRememberTool } from "../tools/remember.ts";
import { createTodoWriteTool } from "../tools/todo-write.ts";
import type { AnyTool } from "../tools/tool.ts";
import { toolSchema } from "../wire/tool-schema.ts";

export type Prompt = {
  /** Built once per session: byte-identical on every step so the request prefix stays cached. */
  instructions: string;
  tools: AnyTool[];
  /** The tools as sent, converted once. */
  toolSchemas: FunctionTool[];
  memory?: MemoryStore;
};

export type PromptOptions = {
  home: string;
  cwd: string;
  noInstructions: boolean;
  noMemory: boolean;
  /** The session's task list, read and replaced by `todo_write`. */
  notebook: Pick<Notebook, "todos">;
  warn: (line: string) => void;
};

/** The instructions and tools of a session: base prompt, AGENTS.md, skills, project memory. */
export async function loadPrompt(opts: PromptOptions): Promise<Prompt> {
  const { home, cwd, warn } = opts;
  const getSkills = () => loadSkills({ home, root: cwd, warn });
  const [agents, skills] = await Promise.all([opts.noInstructions ? undefined : loadAgentsMd(home, cwd), getSkills()]);
  if (agents?.truncated) warn(`AGENTS.md instructions cut at 32 KiB (${agents.files.length} files)`);
  for (const skipped of agents?.skipped ?? []) warn(`AGENTS.md skipped: cannot read ${skipped}`);

  let memory: MemoryStore | undefined;
  let memoryText = "";
  if (!opts.noMemory) {
    memory = createMemoryStore(home, cwd);
    const read = await memory.read();
    if (read.warning) warn(read.warning);
    memoryText = memorySection(read.entries);
  }

  const sections = [
    systemPrompt({ cwd, platform: process.platform }),
    agents?.text ? `# Instructions from AGENTS.md files\n\n${agents.text}` : "",
    skillsInstructions(skills),
    memoryText,
  ];
  const tools: AnyTool[] = [
    ...codingTools,
    createTodoWriteTool(opts.notebook),
    ...(memory ? [createRememberTool(memory), createRecallTool(memory), createForgetTool(memory)] : []),
    ...(skills.length ? [createSkillTool(getSkills)] : []),
  ];
  return {
    instructions: sections.filter((s) => s !== "").join("\n\n"),
    tools,
    toolSchemas: tools.map(toolSchema),
    ...(memory ? { memory } : {}),
  };
}
