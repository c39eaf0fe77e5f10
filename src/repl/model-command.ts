import type { ReplCommand, ReplContext } from "./repl-command.ts";
import { nearestNames } from "../text/nearest.ts";

const FORCE = "--force";

/**
 * `/model`: which model answers, and the ones the endpoint offers (`GET /models`). Switching checks
 * the name against that list, so a typo is refused with the nearest names rather than failing at the
 * next prompt; `--force` switches to a model the endpoint does not list (or when it cannot list any).
 */
export const modelCommand: ReplCommand = {
  name: "model",
  args: "[id | --force id]",
  summary: "show the model and the endpoint's models, or switch",
  run: async (ctx, arg) => {
    const [first = "", ...rest] = arg.split(/\s+/).filter(Boolean);
    if (first === FORCE) {
      if (!rest[0]) return ctx.print(`usage: /model ${FORCE} <id>`);
      return switchTo(ctx, rest[0]);
    }
    let listed: string[];
    try {
      listed = await ctx.current.services.model.list();
    } catch (err) {
      const why = (err as Error).message;
      if (!first) return ctx.print(`model: ${ctx.current.agent.session.model}\n! could not list the endpoint's models: ${why}`);
      return ctx.print(`! could not check "${first}" against the endpoint's models (${why}); /model ${FORCE} ${first} switches anyway`);
    }
    if (!first) return ctx.print(`model: ${ctx.current.agent.session.model}\n${listed.length ? `the endpoint offers:\n${packed(listed, ctx.columns())}` : "the endpoint lists no models"}`);
    if (listed.includes(first)) return switchTo(ctx, first);
    const near = nearestNames(first, listed);
    ctx.print(`! the endpoint has no model "${first}"${near.length ? `; nearest: ${near.join(", ")}` : ""} (/model ${FORCE} ${first} switches anyway)`);
  },
};

function switchTo(ctx: ReplContext, model: string): void {
  ctx.current.agent.setModel(model);
  ctx.print(`model: ${ctx.current.agent.session.model}`);
}

/** Names two spaces apart, as many to a line as fit the width, under a two-space indent. */
function packed(names: readonly string[], columns: number): string {
  const lines: string[] = [];
  let line = "";
  for (const name of names) {
    if (line && line.length + 2 + name.length > columns - 3) {
      lines.push(line);
      line = "";
    }
    line = line ? `${line}  ${name}` : `  ${name}`;
  }
  return [...lines, line].join("\n");
}
