import type { CurrentAgent } from "../agent/current-agent.ts";
import type { PickList } from "./pick-list.ts";
import type { SlashCommand } from "./slash-commands.ts";

/** What a slash command can reach. */
export type ReplContext = {
  /**
   * The agent at work now (`current.agent`: /clear and /resume put another, on another session, in
   * its place) and the services it is made from (the stores, the MCP servers, the saved commands, the model endpoint).
   */
  current: CurrentAgent;
  /** Where shiro keeps its state, and the registry to fetch from. */
  config: { home: string; registryUrl?: string };
  print: (text: string) => void;
  /** Asks the person a yes/no question at the prompt. */
  confirm: (question: string) => Promise<boolean>;
  /** Asks the person to pick a row in place of the prompt (↑/↓, Enter); undefined when they cancel. */
  pick: (list: Omit<PickList, "pick">) => Promise<number | undefined>;
  /** Puts `text` in the prompt line for editing, unless something is typed there already. */
  refill: (text: string) => void;
  color: boolean;
  /** The terminal's width and height now (it may have been resized). */
  columns: () => number;
  rows: () => number;
  /** Aborted by Esc while a slash command waits on the model (/compact, /memory). */
  signal: AbortSignal;
};

export type ReplCommand = SlashCommand<ReplContext>;
