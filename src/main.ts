import { UsageError } from "./exit/usage-error.ts";
import { VERSION } from "./version.ts";
import { withoutRuntimeHint } from "./text/runtime-hint.ts";

// Only what a command needs is loaded. `--version` or `--help` on its own is answered before the
// flag parser loads: node:util alone costs several MB of start-up RSS.
const ALONE = new Map([["--version", "version"], ["-v", "version"], ["--help", "help"], ["-h", "help"]]);

async function main(argv: string[]): Promise<number> {
  // The sandbox's own launcher and the gate's filter (shiro re-executed by itself): nothing else of shiro loads.
  if (argv[0] === "__landlock") await (await import("./sandbox/landlock-launch.ts")).landlockLaunch();
  if (argv[0] === "__gate-exec") (await import("./sandbox/gate/gate-exec.ts")).gateExec(argv.slice(1), process.env as Record<string, string>);
  const alone = argv.length === 1 ? ALONE.get(argv[0]!) : undefined;
  const flags = alone ? undefined : (await import("./cli/args.ts")).parseFlags(argv);
  if (alone === "version" || flags?.version) return say(`shiro ${VERSION}`);
  if (alone === "help" || flags?.help) return say((await import("./cli/help.ts")).HELP);
  const { runCli } = await import("./run-cli.ts");
  return runCli(flags!);
}

// console.log rather than process.stdout: the stream object alone costs ~4 MB and ~5 ms at start-up.
function say(text: string): number {
  console.log(text);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (err) => {
    if (err instanceof UsageError) {
      // Imported here: what renders the rare long form (the sessions a prefix matched) costs nothing at start-up.
      const { usageErrorText } = await import("./ui/usage-error-text.ts");
      process.stderr.write(`shiro: ${usageErrorText(err)}\n`);
      process.exit(2);
    }
    // Anything else is a bug; still one line, never a stack trace (SHIRO_DEBUG shows it).
    process.stderr.write(`shiro: internal error: ${withoutRuntimeHint((err as Error)?.message ?? String(err))}\n`);
    if (process.env.SHIRO_DEBUG) console.error(err);
    process.exit(1);
  },
);
