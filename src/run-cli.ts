import type { Flags } from "./cli/args.ts";
import { UsageError } from "./cli/usage-error.ts";
import { loadConfig, type Config } from "./cli/config.ts";

/** Dispatches to a subcommand, print mode or the REPL. Returns the exit code. */
export async function runCli(flags: Flags): Promise<number> {
  const config = await loadConfig(flags, process.env);
  if (flags.command) return (await import("./cli/subcommands.ts")).runSubcommand(flags.command.name, flags.command.args, config);
  const print = flags.print || flags.json || !process.stdin.isTTY;
  if (print) return (await import("./print/run-print.ts")).runPrint(flags, withKey(config));
  if (flags.timeout !== undefined) throw new UsageError("--timeout limits a print-mode run: add -p (the interactive session has no time limit)");
  return (await import("./repl/repl.ts")).runRepl(flags, withKey(config));
}

export function withKey(config: Config): Config & { apiKey: string } {
  if (!config.apiKey)
    throw new UsageError("OPENAI_API_KEY is not set: export it (or point --base-url at a Responses-compatible server and set any key)");
  return { ...config, apiKey: config.apiKey };
}
