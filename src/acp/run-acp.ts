import type { Config, Flags } from "../services/settings.ts";
import { acpServer } from "./acp-server.ts";
import { servePeer } from "./json-rpc.ts";

/**
 * `shiro acp`: an Agent Client Protocol agent on stdin and stdout, until the editor closes stdin.
 * stdout carries protocol messages only: anything else in the process that would write there (a
 * stray console.log) is sent to stderr with the logs, so one byte cannot break the editor's stream.
 */
export async function runAcp(flags: Flags, config: Config & { apiKey: string }, builtins: readonly string[]): Promise<number> {
  const protocol = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  console.log = console.error;
  const warn = (line: string) => void process.stderr.write(`shiro acp: ${line}\n`);
  const { handlers, done } = servePeer(Bun.stdin.stream() as ReadableStream<Uint8Array>, (line) => void protocol(line), (peer) => acpServer(peer, { flags, config, builtins, warn }));
  await done;
  await handlers.close();
  return 0;
}
