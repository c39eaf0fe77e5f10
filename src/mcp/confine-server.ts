import type { Grant, SandboxLevel } from "../session/sandbox-level.ts";
import type { CommandSandbox } from "../tools/tool.ts";
import type { McpServerDef } from "./mcp-types.ts";

/**
 * A stdio server's definition run inside the OS sandbox at `level`, as a command approved by the person
 * (their config asked for it): the project readable (writable at `workspace-write`), the home and
 * secrets hidden, the network as for an approved command. The sandbox's options go on fd 4, as a command's do.
 */
export function confinedServer(def: Extract<McpServerDef, { kind: "stdio" }>, sandbox: CommandSandbox, root: string): McpServerDef {
  const argv = [def.command, ...def.args];
  const prepared = sandbox.prepare(argv, root, argv.join(" "));
  return { ...def, command: prepared.argv[0]!, args: prepared.argv.slice(1), ...(prepared.fd4 ? { fd4: prepared.fd4 } : {}) };
}

/** The sandbox a server asking for `level` runs in, or undefined when no OS sandbox can run here. */
export type Confine = (level: SandboxLevel) => Promise<CommandSandbox | undefined>;

/** The run's command sandbox, for servers: the person's config asked for it, so the network is as for a command they approved. */
export const confineWith =
  (sandbox: { canConfine(): Promise<boolean>; at(grant: Grant): Promise<CommandSandbox> }): Confine =>
  async (level) =>
    (await sandbox.canConfine()) ? sandbox.at({ level, byPerson: true }) : undefined;
