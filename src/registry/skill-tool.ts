import { z } from "zod";
import { ToolError, defineTool, type AnyTool } from "../tools/tool.ts";
import type { Skill } from "./load-skills.ts";

const schema = z.object({ name: z.string().describe("The skill's name, as listed under Skills in your instructions.") });

/**
 * The `skill` tool: the only way a skill's body reaches the model. `getSkills` is asked at each call so a
 * skill installed mid-session is found without a restart.
 */
export function createSkillTool(getSkills: () => Promise<readonly Skill[]> | readonly Skill[]): AnyTool {
  return defineTool({
    name: "skill",
    description: "Load the full instructions of one of the skills listed in your instructions, by name. Call it when a task matches a skill's description.",
    schema,
    kind: "meta",
    subject: () => ({}),
    async run({ name }) {
      const skills = await getSkills();
      const skill = skills.find((candidate) => candidate.name === name);
      if (!skill) {
        const known = skills.map((candidate) => candidate.name).join(", ") || "none";
        throw new ToolError(`No skill named ${JSON.stringify(name)}. Available: ${known}.`);
      }
      return { output: skill.body, display: `loaded skill ${skill.name} (${skill.layer})` };
    },
  });
}
