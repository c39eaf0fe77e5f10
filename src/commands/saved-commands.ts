import { relative } from "node:path";
import { shownAsIs } from "../text/terminal-text.ts";
import { ATTACH_CAP, attachMentions } from "../context/attach-mentions.ts";
import { cutWords, fitInput } from "../context/fit-input.ts";
import { folderSignature } from "../registry/folder-signature.ts";
import type { InputImage } from "../session/messages.ts";
import type { Approvals } from "../store/approvals.ts";
import type { TurnAllow } from "../tools/authorize-request.ts";
import { namingNothing, parseAllowedTools, type ToolLimit } from "./allowed-tools.ts";
import { expandCommand } from "./expand-command.ts";
import { commandFolders, loadCommands, type SavedCommand } from "./load-commands.ts";

/** How a `` !`cmd` `` ran, through the `bash` tool's own path (rules, guard, sandbox, redaction): `refused` says why it did not. */
export type ShellOutcome = { output: string; failed: boolean; refused?: string };

export type SavedCommandsDeps = {
  home: string;
  root: string;
  /** The person's home, where `~/.claude/commands/` is. */
  userHome: string;
  /** The built-in commands' names and aliases: a saved one cannot take them. */
  builtins: readonly string[];
  /** Where a project command's approval is found and kept (`$SHIRO_HOME/approvals.json`, read on first need). */
  approvals: () => Promise<Approvals>;
  warn: (line: string) => void;
};

/** What a command's `` !`cmd` `` and `@path` are done with: the calls of the agent whose turn it fills. */
export type CommandCalls = {
  /** Runs a command as a `bash` tool call would be run; `allows`: what the command's `allowed-tools` approve. */
  run: (command: string, signal: AbortSignal, allows?: readonly TurnAllow[]) => Promise<ShellOutcome>;
  /** The tools a turn would offer now: an `allowed-tools` entry naming none of them is said. */
  toolNames: () => readonly string[];
  /** Why `read_file` would be refused `path` (the guard, a plugin, a rule, a person), if it would. */
  readRefused: (path: string) => Promise<string | undefined>;
};

/** What the person running it can do (see text and, in the REPL, answer yes or no), and the agent's calls it runs with. */
export type RunHow = { show: (text: string) => void; confirm?: (question: string) => Promise<boolean>; signal: AbortSignal; calls: CommandCalls };

/** How a turn differs from a typed prompt's text alone: a command's model and the tools it offers and approves; the images that go with the prompt. */
export type CommandTurn = { model?: string; tools?: ToolLimit; images?: readonly InputImage[] };

export type Prepared = ({ ok: true; prompt: string; attached: string[]; ran: string[]; warnings: string[] } & CommandTurn) | { ok: false; message: string };

export type SavedCommands = {
  /** Every saved command now, read again only when a commands folder changed. */
  list(): Promise<readonly SavedCommand[]>;
  find(name: string): Promise<SavedCommand | undefined>;
  /** The prompt `/name args` sends, or why it is not sent. */
  prepare(command: SavedCommand, args: string, how: RunHow): Promise<Prepared>;
};

export function createSavedCommands(deps: SavedCommandsDeps): SavedCommands {
  const folders = Object.values(commandFolders(deps.home, deps.root, deps.userHome)).flat();
  const builtins = new Set(deps.builtins);
  const reported = new Set<string>();
  let loaded: { signature: string; commands: Promise<SavedCommand[]> } | undefined;

  const list = async () => {
    const signature = (await Promise.all(folders.map((folder) => folderSignature(folder, true)))).join("\n\n");
    if (loaded?.signature !== signature) loaded = { signature, commands: loadCommands(deps).then(withoutBuiltins) };
    return loaded.commands;
  };
  // A clash is said once per file, not at every look.
  const withoutBuiltins = (commands: SavedCommand[]) =>
    commands.filter((command) => {
      if (!builtins.has(command.name)) return true;
      if (!reported.has(command.path)) deps.warn(`command ${command.path} is not used: /${command.name} is built in (rename the file)`);
      reported.add(command.path);
      return false;
    });

  async function approved(command: SavedCommand, how: RunHow): Promise<string | undefined> {
    if (command.scope === "user") return undefined;
    const store = await deps.approvals();
    if (store.has("command", deps.root, command.name, command.hash)) return undefined;
    const where = relative(deps.root, command.path);
    if (!how.confirm) return `/${command.name} is a project command (${where}) not approved yet: run it once in the REPL (shiro, then /${command.name}) to read and approve it`;
    how.show([`project command /${command.name} (${where}), not run here before or changed since:`, RULE, shownAsIs(command.text.trimEnd()), RULE].join("\n"));
    if (!(await how.confirm(`Run /${command.name} as written?`))) return `/${command.name} not run.`;
    await store.add("command", deps.root, command.name, command.hash);
    return undefined;
  }

  return {
    list,
    find: async (name) => (await list()).find((c) => c.name === name),
    async prepare(command, args, how) {
      const refusal = await approved(command, how);
      if (refusal) return { ok: false, message: refusal };
      const expanded = expandCommand(command.body, args);
      if (!expanded.ok) return { ok: false, message: `/${command.name} not run: ${expanded.problem}` };
      const { parts } = expanded;
      const ran: string[] = [];
      const warnings: string[] = [];
      const turn = commandTurn(command, how.calls.toolNames(), warnings);
      let prompt = "";
      for (const part of parts) {
        if (part.kind === "text") {
          prompt += part.text;
          continue;
        }
        const outcome = await how.calls.run(part.command, how.signal, turn.tools?.allows);
        // Esc (the REPL) or a stop signal while it ran: the prompt it was filling is not sent.
        if (how.signal.aborted) return { ok: false, message: `/${command.name} stopped while !\`${part.command}\` ran; nothing was sent` };
        if (outcome.refused !== undefined) return { ok: false, message: `/${command.name} not run: !\`${part.command}\` was refused (${outcome.refused})` };
        if (outcome.failed) warnings.push(`!\`${part.command}\` failed; its output is sent as it is`);
        ran.push(part.command);
        // Cut as an attached file is: a long log keeps its head and its tail.
        const fitted = fitInput(outcome.output.trimEnd(), ATTACH_CAP, `!\`${part.command}\``);
        if (fitted.cut) warnings.push(cutWords(`the output of !\`${part.command}\` is too large to send whole`, fitted.cut));
        prompt += fitted.text;
      }
      // Only the command's own text attaches: a `@` in a command's output is that output's, not a request.
      const typed = parts.flatMap((p) => (p.kind === "text" ? [p.text] : [])).join("\n");
      const files = await attachMentions(typed, deps.root, how.calls.readRefused);
      warnings.push(...files.refused.map((r) => `not attached: ${r}`), ...files.notices);
      if (files.missing.length) warnings.push(`not a file, sent as text: ${files.missing.join(", ")}`);
      return { ok: true, prompt: prompt + files.text.slice(typed.length), ...turn, ...(files.images.length ? { images: files.images } : {}), attached: files.attached, ran, warnings };
    },
  };
}

const RULE = "─".repeat(40);

/**
 * The turn a command asks for. A model Claude Code names (`sonnet`, `claude-…`) is no model of this
 * endpoint: the turn stays on the session's, said in a warning, rather than failing at the first call.
 * An `allowed-tools` entry that names no tool here (`WebFetch`) is said too; MCP names are not, since
 * their servers may still be starting.
 */
function commandTurn(command: SavedCommand, toolNames: readonly string[], warnings: string[]): CommandTurn {
  const claude = command.model !== undefined && /^(claude\b|opus|sonnet|haiku)/i.test(command.model);
  if (claude) warnings.push(`model: ${command.model} is Claude Code's; this turn stays on the session's model`);
  const tools = command.allowedTools === undefined ? undefined : parseAllowedTools(command.allowedTools);
  const unknown = tools && namingNothing(tools, toolNames);
  if (unknown?.length) warnings.push(`allowed-tools: ${unknown.join(", ")} ${unknown.length > 1 ? "name" : "names"} no tool of shiro's; left out`);
  return { ...(command.model && !claude ? { model: command.model } : {}), ...(tools ? { tools } : {}) };
}
