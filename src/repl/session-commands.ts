import { UsageError } from "../exit/usage-error.ts";
import { costReport, ID_PREFIX_CHARS, sessionsTable } from "../ui/sessions-table.ts";
import { resolve } from "node:path";
import { sessionTotals } from "../pricing/session-totals.ts";
import type { ReplCommand, ReplContext } from "./repl-command.ts";
import { showTodoPanel } from "./memory-commands.ts";
import { plural } from "../text/plural.ts";
import { renderRecap } from "../ui/session-recap.ts";
import { renderTodoPanel } from "../ui/todo-panel.ts";
import { usageErrorText } from "../ui/usage-error-text.ts";

/** What /resume, `-c` and `-r` say about the session that goes on. */
export const resumedLine = (s: { id: string; messages: readonly unknown[]; model: string }): string =>
  `resumed ${s.id.slice(0, ID_PREFIX_CHARS)} · ${plural(s.messages.length, "message")} · ${s.model}`;

/** Rows kept free below the recap: the header above it, the prompt and a line of air. */
const RECAP_MARGIN = 6;

/**
 * A session that goes on (`-c`, `-r`, `/resume`) says which it is, shows its last exchanges (as many
 * as fit the screen under the task list) and its task list, so the person sees where they were.
 */
export function showWhereLeftOff(ctx: ReplContext): void {
  const session = ctx.current.agent.session;
  ctx.print(resumedLine(session));
  const panel = renderTodoPanel(session.notebook.todos).split("\n").filter(Boolean).length;
  const recap = renderRecap(session.messages, { columns: ctx.columns(), rows: ctx.rows() - RECAP_MARGIN - panel, color: ctx.color });
  if (recap) ctx.print(recap);
  showTodoPanel(ctx);
}

export const sessionCommands: ReplCommand[] = [
  {
    name: "clear",
    summary: "start a new session (the current one stays saved)",
    run: async (ctx) => {
      await ctx.current.reset();
      ctx.print(`new session ${ctx.current.agent.session.id.slice(0, ID_PREFIX_CHARS)}`);
    },
  },
  {
    name: "sessions",
    args: "[--all]",
    summary: "list this folder's last 15 sessions (--all: every folder's)",
    run: async (ctx, arg) => {
      const all = arg.trim() === "--all";
      const { sessions, warnings } = await ctx.current.services.sessions.list({ cwd: ctx.current.agent.session.cwd, all });
      warnings.forEach((w) => ctx.print(`! ${w}`));
      ctx.print(sessions.length ? sessionsTable(sessions, new Date(), undefined, ctx.columns(), { folders: all }) : all ? "no saved sessions yet" : "no saved sessions in this folder yet (/sessions --all lists every folder's)");
    },
  },
  {
    name: "resume",
    args: "<id>",
    summary: "switch to a saved session (id or unique prefix)",
    run: async (ctx, arg) => {
      if (!arg) return ctx.print("usage: /resume <id or prefix> (see /sessions)");
      try {
        const here = ctx.current.agent.session.cwd;
        await ctx.current.resume(arg);
        showWhereLeftOff(ctx);
        // The model's tools still work in this folder; the person should know the session began elsewhere.
        if (resolve(ctx.current.agent.session.cwd) !== resolve(here)) ctx.print(`! this session was started in ${ctx.current.agent.session.cwd}; its tools now work in ${here}`);
      } catch (err) {
        if (!(err instanceof UsageError)) throw err;
        ctx.print(usageErrorText(err));
      }
    },
  },
  {
    name: "save",
    summary: "where the session is saved (every event is written as it happens)",
    run: async (ctx) =>
      ctx.print(
        ctx.current.services.sessions.saves
          ? `saved ${ctx.current.agent.session.id} (every event is written as it happens)`
          : `not saved: $SHIRO_HOME cannot be written, so this session lives in memory until you quit`,
      ),
  },
  {
    name: "cost",
    summary: "tokens and cost of this session",
    run: async (ctx) => ctx.print(costReport(sessionTotals(ctx.current.agent.session.messages))),
  },
  {
    name: "compact",
    args: "[focus]",
    summary: "replace the transcript sent to the model with a summary",
    run: async (ctx, arg) => {
      const result = await ctx.current.agent.compact(arg, ctx.signal, () => ctx.print("· writing a summary…"));
      ctx.print(result.ok ? `· ${result.message}` : `! ${result.message}`);
    },
  },
];
