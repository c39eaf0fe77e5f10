import { parseFlags, UsageError } from "./cli/args.ts";
import { VERSION } from "./version.ts";

// Only what a command needs is loaded: --version and --help import nothing else.
async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv);
  if (flags.version) return say(`shiro ${VERSION}`);
  if (flags.help) return say((await import("./cli/help.ts")).HELP);
  const { runCli } = await import("./cli/run-cli.ts");
  return runCli(flags);
}

// console.log rather than process.stdout: the stream object alone costs ~4 MB and ~5 ms at start-up.
function say(text: string): number {
  console.log(text);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`shiro: ${err.message}\n`);
      process.exit(2);
    }
    // Anything else is a bug; still one line, never a stack trace (SHIRO_DEBUG shows it).
    process.stderr.write(`shiro: internal error: ${(err as Error)?.message ?? String(err)}\n`);
    if (process.env.SHIRO_DEBUG) console.error(err);
    process.exit(1);
  },
);
