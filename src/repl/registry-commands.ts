import { loadSkills } from "../registry/load-skills.ts";
import { DEFAULT_REGISTRY_URL } from "../registry/limits.ts";
import { registryCommand } from "../registry/registry-command.ts";
import { renderSkillsTable } from "../registry/skills-table.ts";
import type { ReplCommand } from "./repl-command.ts";

const SESSION_NOTE = "Skill changes reach the model at its next call, plugin changes at the next tool call.";

export const registryCommands: ReplCommand[] = [
  {
    name: "skills",
    summary: "available skills and where each came from",
    run: async (ctx) => {
      const { home } = ctx.config;
      const skills = await loadSkills({ home, root: ctx.current.agent.session.cwd, warn: (w) => ctx.print(`! ${w}`) });
      ctx.print(skills.length ? renderSkillsTable(skills, ctx.columns() - 1).join("\n") : "no skills (see /registry list)");
    },
  },
  {
    name: "registry",
    args: "[subcommand]",
    summary: "browse and install skills and plugins",
    run: async (ctx, arg) => {
      const { home, registryUrl } = ctx.config;
      const argv = arg.split(/\s+/).filter(Boolean);
      const code = await registryCommand(argv, {
        command: "/registry",
        out: ctx.print,
        err: ctx.print,
        confirm: ctx.confirm,
        home,
        registryUrl: registryUrl ?? DEFAULT_REGISTRY_URL,
        columns: ctx.columns(),
      });
      // Say when a change lands: skills are told after the history (the cached prefix stays), plugins guard the next call.
      if (code === 0 && (argv[0] === "add" || argv[0] === "remove")) ctx.print(SESSION_NOTE);
    },
  },
];
