import type { FunctionTool } from "openai/resources/responses/responses";
import { systemPrompt } from "./system-prompt.ts";
import type { Notebook } from "../session/notebook.ts";
import { loadAgentsMd } from "../context/agents-md.ts";
import { memorySection } from "../context/memory-section.ts";
import type { LiveSkills } from "../registry/live-skills.ts";
import type { Skill } from "../registry/load-skills.ts";
import { createSkillTool } from "../registry/skill-tool.ts";
import { skillsInstructions } from "../registry/skills-instructions.ts";
import { createMemoryStore, type MemoryStore } from "../store/memory-store.ts";
import { codingTools } from "../tools/coding-tools.ts";
import { createForgetTool } from "../tools/notes/forget.ts";
import { createRecallTool } from "../tools/notes/recall.ts";
import { createRememberTool } from "../tools/notes/remember.ts";
import { createTodoWriteTool } from "../tools/notes/todo-write.ts";
import type { AnyTool } from "../tools/tool.ts";
import { toolSchema } from "../wire/tool-schema.ts";
import type { InstructionFiles } from "../services/settings.ts";

export type Prompt = {
  /** Built once per session: byte-identical on every step so the request prefix stays cached. */
  instructions: string;
  /** The instruction files read into it at the start, as it names them (`~shiro/AGENTS.md`, `../AGENTS.md`). */
  files: readonly string[];
  /** Every tool the model may call, the `skill` tool included even before there is a skill to load. */
  tools: AnyTool[];
  /** The tools as sent, converted once; the `skill` tool only when the instructions list a skill. */
  toolSchemas: FunctionTool[];
  /** The `skill` tool as sent, for a session whose first skill arrives mid-session. */
  skillSchema: FunctionTool;
  /** The skills the instructions list; later changes are told at the end of each request (prompt-for-request.ts). */
  skills: readonly Skill[];
  /** The skills available now. */
  currentSkills(): Promise<readonly Skill[]>;
  memory?: MemoryStore;
};

export type PromptOptions = {
  home: string;
  cwd: string;
  instructionFiles: InstructionFiles;
  noMemory: boolean;
  /**
   * The notes are read into the instructions, but no tool is offered that writes them (`--ephemeral`):
   * `remember` and `forget` change the file, and `recall` counts each hit in it.
   */
  memoryReadOnly?: boolean;
  /** The session's task list, read and replaced by `todo_write`. */
  notebook: Pick<Notebook, "todos">;
  /** The skill folders, watched for the whole run (a new session's prompt reads them as they are then). */
  skills: LiveSkills;
  warn: (line: string) => void;
  /** The agent's own base prompt, in place of shiro's (AGENTS.md, skills and notes still follow it). */
  instructions?: string;
  /** Which tools are offered, by name: every one when absent. */
  offers?: (name: string) => boolean;
  /** The agent's own tools, after the coding tools (`task`, made with what only the agent knows). */
  agentTools?: readonly AnyTool[];
};

/** The instructions and tools of a session: base prompt, AGENTS.md, skills, project memory. */
export async function loadPrompt(opts: PromptOptions): Promise<Prompt> {
  const { home, cwd, warn } = opts;
  const currentSkills = () => opts.skills.current();
  const [agents, skills] = await Promise.all([opts.instructionFiles === "none" ? undefined : loadAgentsMd(home, cwd, { project: opts.instructionFiles === "all" }), currentSkills()]);
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
    opts.instructions ?? systemPrompt({ cwd, platform: process.platform }),
    agents?.text ? `# Instructions from AGENTS.md files\n\n${agents.text}` : "", skillsInstructions(skills),
    memoryText,
  ];
  const skillTool = createSkillTool(currentSkills);
  const tools: AnyTool[] = [
    ...codingTools,
    createTodoWriteTool(opts.notebook),
    ...(memory && !opts.memoryReadOnly ? [createRememberTool(memory), createRecallTool(memory), createForgetTool(memory)] : []),
    ...(opts.agentTools ?? []),
    skillTool,
  ].filter((tool) => !opts.offers || opts.offers(tool.name));
  return {
    instructions: sections.filter((s) => s !== "").join("\n\n"),
    files: agents?.labels ?? [],
    tools,
    toolSchemas: tools.filter((tool) => tool !== skillTool || skills.length > 0).map(toolSchema),
    skillSchema: toolSchema(skillTool),
    skills,
    currentSkills,
    ...(memory ? { memory } : {}),
  };
}

/** The prompt with more tools after its own (the MCP servers' offered now): the same object when there are none. */
export function withTools(prompt: Prompt, extra: readonly AnyTool[]): Prompt {
  if (extra.length === 0) return prompt;
  return { ...prompt, tools: [...prompt.tools, ...extra], toolSchemas: [...prompt.toolSchemas, ...extra.map(toolSchema)] };
}
