import { alignColumns } from "../text/align-columns.ts";
import { nearest } from "../text/nearest.ts";

/** One row of the table that feeds the parser, `/help` and tab completion. */
export type SlashCommand<Ctx> = {
  name: string;
  /** Other names that run it (`/q` for `/quit`). */
  aliases?: readonly string[];
  /** Shown in /help, e.g. "<id>" or "[focus]". */
  args?: string;
  summary: string;
  /** It acts on the turns themselves (/undo): refused while one runs, rather than queued to run after it. */
  notDuringTurn?: boolean;
  run(ctx: Ctx, arg: string): Promise<void | "exit">;
};

export type ParsedSlash<Ctx> =
  | { kind: "command"; command: SlashCommand<Ctx>; arg: string }
  | { kind: "unknown"; name: string; suggestion?: string };

export function parseSlash<Ctx>(line: string, table: readonly SlashCommand<Ctx>[]): ParsedSlash<Ctx> {
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(line.trim())!;
  const name = match[1]!.toLowerCase();
  const command = table.find((c) => c.name === name || c.aliases?.includes(name));
  if (command) return { kind: "command", command, arg: match[2]!.trim() };
  const suggestion = nearest(name, table.map((c) => c.name));
  return { kind: "unknown", name, ...(suggestion ? { suggestion } : {}) };
}

export function unknownCommandLine(parsed: { name: string; suggestion?: string }): string {
  return `unknown command /${parsed.name}${parsed.suggestion ? ` — did you mean /${parsed.suggestion}?` : ""} (see /help)`;
}

/** The aligned menu for /help, wrapped to the terminal's width. */
export function helpMenu<Ctx>(table: readonly SlashCommand<Ctx>[], columns = 80): string {
  return indentedColumns(table.map((c) => [usage(c), `${c.summary}${c.aliases ? ` (also ${c.aliases.map((a) => `/${a}`).join(", ")})` : ""}`]), columns);
}

/** `/resume <id>`: the command as typed, with its arguments' shape. */
const usage = <Ctx>(c: SlashCommand<Ctx>) => `/${c.name}${c.args ? ` ${c.args}` : ""}`;

/** The menu shown as a `/command` is typed: commands whose name (or an alias) starts with it, with their summaries. */
export function slashMenu<Ctx>(typed: string, table: readonly SlashCommand<Ctx>[]): [string, string][] {
  if (!/^\/\S*$/.test(typed)) return [];
  const word = typed.slice(1).toLowerCase();
  return table.filter((c) => [c.name, ...(c.aliases ?? [])].some((n) => n.startsWith(word))).map((c) => [usage(c), c.summary]);
}

/** Rows aligned under a two-space indent, none reaching the terminal's edge (the last column folded under itself, or clipped). */
export const indentedColumns = (rows: readonly (readonly string[])[], columns: number): string =>
  alignColumns(rows, { width: columns - 3 })
    .map((line) => `  ${line}`)
    .join("\n");

export function completeSlash<Ctx>(prefix: string, table: readonly SlashCommand<Ctx>[]): string[] {
  return table.filter((c) => `/${c.name}`.startsWith(prefix)).map((c) => `/${c.name}`);
}
