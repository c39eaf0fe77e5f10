import type { Flags } from "./cli/args.ts";
import { UsageError } from "./exit/usage-error.ts";
import { loadConfig, type Config } from "./cli/config.ts";
import { configurePrices } from "./pricing/cost.ts";

/** Flags that only a run to completion can honour, and what to say when the REPL is asked for one. */
const PRINT_ONLY: [keyof Flags, string][] = [
  ["timeout", "--timeout limits a print-mode run: add -p (the interactive session has no time limit)"],
  ["maxCost", "--max-cost limits a print-mode run: add -p"],
  ["outputSchema", "--output-schema shapes a print-mode answer: add -p"],
  ["output", "--output writes a print-mode answer to a file: add -p"],
  ["ephemeral", "--ephemeral is for print-mode runs: add -p (the interactive session is always saved)"],
];

/** Dispatches to a subcommand, print mode or the REPL. Returns the exit code. */
export async function runCli(flags: Flags): Promise<number> {
  if (flags.command?.name === "acp") return runAcp(flags.command.args);
  const config = await loadConfig(flags, process.env);
  configurePrices(config.pricing);
  if (flags.command) return (await import("./cli/subcommands.ts")).runSubcommand(flags.command.name, flags.command.args, config);
  if (flags.ephemeral && (flags.continue || flags.resume))
    throw new UsageError("--ephemeral starts a session that is never saved, so it cannot continue one: leave out -c/-r (or --ephemeral)");
  const print = flags.print || flags.json || !process.stdin.isTTY;
  if (print) return (await import("./print/run-print.ts")).runPrint(flags, withKey(config), async () => (await import("./repl/commands.ts")).builtinNames());
  const printOnly = PRINT_ONLY.find(([flag]) => flags[flag] !== undefined && flags[flag] !== false);
  if (printOnly) throw new UsageError(printOnly[1]);
  // The REPL opens without a key (its commands, sessions and undo need none); it says how to set one, and a prompt is refused until then.
  return (await import("./repl/repl.ts")).runRepl(flags, { ...config, apiKey: config.apiKey ?? "" });
}

/** `shiro acp`: a driver as print mode and the REPL are, with its own options (an editor starts it; docs/editors.md). */
async function runAcp(args: string[]): Promise<number> {
  const help = (await import("./cli/subcommand-help.ts")).subcommandHelp("acp", args);
  if (help !== undefined) {
    console.log(help);
    return 0;
  }
  const flags = (await import("./cli/acp-flags.ts")).acpFlags(args);
  const config = await loadConfig(flags, process.env);
  configurePrices(config.pricing);
  const builtins = (await import("./repl/commands.ts")).builtinNames();
  return (await import("./acp/run-acp.ts")).runAcp(flags, withKey(config), builtins);
}

const NO_KEY = "OPENAI_API_KEY is not set: export it (or point --base-url at a Responses-compatible server and set any key)";

export function withKey(config: Config): Config & { apiKey: string } {
  if (!config.apiKey) throw new UsageError(NO_KEY);
  return { ...config, apiKey: config.apiKey };
}
