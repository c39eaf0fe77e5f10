import type { FunctionTool } from "openai/resources/responses/responses";
import { skillsUpdate } from "../registry/skills-update.ts";
import type { Skill } from "../registry/load-skills.ts";
import type { Prompt } from "./load-prompt.ts";

/**
 * The session's prompt as one request sends it, given the skills available now. The instructions and
 * tools stay as the session began (the cached prefix of the request), except that the `skill` tool joins
 * the tools once there is a first skill; what changed is told in a note after the history.
 */
export function promptForRequest(prompt: Prompt, current: readonly Skill[]): { tools: FunctionTool[]; skillsNote?: string } {
  const tools = prompt.skills.length === 0 && current.length > 0 ? [...prompt.toolSchemas, prompt.skillSchema] : prompt.toolSchemas;
  const skillsNote = skillsUpdate(prompt.skills, current);
  return skillsNote ? { tools, skillsNote } : { tools };
}
