import type pc from "picocolors";
import { VERSION } from "../version.ts";
import { contextLine, type ReplContext } from "./commands.ts";
import { showWhereLeftOff } from "./session-commands.ts";

/** The first lines: version, model, folder and context use, the keys to know, and for -c/-r where the session left off. */
export function showHeader(ctx: ReplContext, c: ReturnType<typeof pc.createColors>, hasKey = true): void {
  const { agent } = ctx.current;
  ctx.print(`${c.bold("shiro")} ${VERSION} · ${agent.session.model} · ${process.cwd()} · ${contextLine(agent, c)}`);
  ctx.print(c.dim("/help for commands · Alt-Enter: new line · Esc aborts a turn · Ctrl-D quits"));
  if (!hasKey) ctx.print(c.yellow("! no API key: export OPENAI_API_KEY=… (or point --base-url at a Responses-compatible server and set any key) and start shiro again; sessions, /undo and the other commands work meanwhile"));
  if (agent.session.messages.length) showWhereLeftOff(ctx);
}
