import { UsageError } from "../cli/usage-error.ts";
import { costReport, ID_PREFIX_CHARS, sessionsTable } from "../store/list-sessions-view.ts";
import type { Session } from "../store/session-file.ts";
import { sessionTotals } from "../store/session-totals.ts";
import type { ReplCommand } from "./commands.ts";
import { showTodoPanel } from "./memory-commands.ts";
import { plural } from "../text/plural.ts";

/** What /resume, `-c` and `-r` say about the session that goes on. */
export const resumedLine = (s: Session): string =>
  `resumed ${s.id.slice(0, ID_PREFIX_CHARS)} · ${plural(s.messages.length, "message")} · ${s.model}`;

export const sessionCommands: ReplCommand[] = [
  {
    name: "clear",
    summary: "start a new session (the current one stays saved)",
    run: async (ctx) => {
      await ctx.runtime.reset();
      ctx.print(`new session ${ctx.runtime.session.id.slice(0, ID_PREFIX_CHARS)}`);
    },
  },
  {
    name: "sessions",
    summary: "list the last 15 sessions",
    run: async (ctx) => {
      const { sessions, warnings } = await ctx.runtime.store.list();
      warnings.forEach((w) => ctx.print(`! ${w}`));
      ctx.print(sessions.length ? sessionsTable(sessions, new Date(), undefined, ctx.columns()) : "no saved sessions yet");
    },
  },
  {
    name: "resume",
    args: "<id>",
    summary: "switch to a saved session (id or unique prefix)",
    run: async (ctx, arg) => {
      if (!arg) return ctx.print("usage: /resume <id or prefix> (see /sessions)");
      try {
        await ctx.runtime.resume(arg);
        ctx.print(resumedLine(ctx.runtime.session));
        showTodoPanel(ctx);
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        ctx.print(err.message);
      }
    },
  },
  {
    name: "save",
    summary: "save the session now",
    run: async (ctx) => {
      await ctx.runtime.save();
      ctx.print(`saved ${ctx.runtime.session.id}`);
    },
  },
  {
    name: "cost",
    summary: "tokens and cost of this session",
    run: async (ctx) => ctx.print(costReport(sessionTotals(ctx.runtime.session.messages))),
  },
  {
    name: "compact",
    args: "[focus]",
    summary: "replace the transcript sent to the model with a summary",
    run: async (ctx, arg) => {
      const result = await ctx.runtime.compact(arg, ctx.signal, () => ctx.print("· writing a summary…"));
      ctx.print(result.ok ? `· ${result.message}` : `! ${result.message}`);
    },
  },
];
