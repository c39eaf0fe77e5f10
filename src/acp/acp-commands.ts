import type { Agent } from "../agent/agent.ts";
import type { SavedCommand } from "../commands/load-commands.ts";
import type { AvailableCommand } from "./acp-types.ts";

/** What a built-in command tells the person, as the turn's answer. */
type BuiltinRun = (agent: Agent, args: string, signal: AbortSignal) => Promise<string>;

/** The REPL's commands that mean something in an editor (the rest are its screen's, or the editor's own: models, sessions, quitting). */
const BUILTINS: (AvailableCommand & { run: BuiltinRun })[] = [
  {
    name: "compact",
    description: "summarise the conversation so far; the next request starts from the summary",
    input: { hint: "what the summary should keep (optional)" },
    run: async (agent, focus, signal) => (await agent.compact(focus, signal)).message,
  },
  {
    name: "undo",
    description: "put back the files the last turn changed and take it out of the history",
    run: async (agent) => {
      const done = await agent.undo(undefined, false);
      if (!done.ok) return `could not undo: ${done.message}`;
      const files = [...done.restored, ...done.removed];
      return `undid turn ${done.turns.join(", ")}${files.length ? `: ${files.join(", ")}` : ""}`;
    },
  },
];

export const ACP_BUILTIN_NAMES = BUILTINS.map((b) => b.name);

/** `available_commands_update`'s list: the built-ins, then the saved commands (src/commands/), by name without the slash. */
export function availableCommands(saved: readonly SavedCommand[]): AvailableCommand[] {
  const builtins = BUILTINS.map(({ run: _, ...command }) => command);
  return [...builtins, ...saved.map((c) => ({ name: c.name, description: c.description || `saved command (${c.scope})`, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) }))];
}

/** The built-in a prompt names (`/compact keep the API notes`), with its words; undefined for anything else. */
export function builtinOf(text: string): { run: BuiltinRun; args: string } | undefined {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  const builtin = match && BUILTINS.find((b) => b.name === match[1]!.toLowerCase());
  return builtin ? { run: builtin.run, args: match[2]!.trim() } : undefined;
}
