import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { Grant, SandboxLevel } from "../session/sandbox-level.ts";
import type { CommandSandbox } from "../process/prepared-command.ts";
import { scriptOf } from "../guard/program-files.ts";
import type { McpServerDef } from "./mcp-types.ts";
import { findProgram } from "./stdio-transport.ts";

/**
 * A stdio server's definition run inside the OS sandbox at `level`, as a command approved by the person
 * (their config asked for it): the project readable (writable at `workspace-write`), the home and
 * secrets hidden, the network as for an approved command. The sandbox's options go on fd 4, as a command's do.
 * Its program is found here, as for a server outside the sandbox (a missing one is said so, by name), and
 * started by that path in its own `cwd`; the sandbox shows it, and the script it is given, read-only
 * where they are installed (sandbox/program-reach.ts): a server installed outside the project still runs.
 */
export function confinedServer(def: Extract<McpServerDef, { kind: "stdio" }>, sandbox: CommandSandbox, root: string): McpServerDef {
  const program = findProgram(def);
  const script = scriptOf([def.command, ...def.args]);
  const programs = [program, ...(script !== undefined ? [resolve(def.cwd, script)] : [])];
  // Where it really is, as the project's root is: the sandbox compares the two.
  const prepared = sandbox.prepare([program, ...def.args], root, [def.command, ...def.args].join(" "), { programs, cwd: realpathSync(def.cwd) });
  const afterExit = () => {
    prepared.tidy?.();
    void prepared.group?.release();
  };
  return { ...def, command: prepared.argv[0]!, args: prepared.argv.slice(1), ...(prepared.fd4 ? { fd4: prepared.fd4 } : {}), afterExit };
}

/** The sandbox a server asking for `level` runs in, or undefined when no OS sandbox can run here. */
export type Confine = (level: SandboxLevel) => Promise<CommandSandbox | undefined>;

/** The run's command sandbox, for servers: the person's config asked for it, so the network is as for a command they approved. */
export const confineWith =
  (sandbox: { canConfine(): Promise<boolean>; at(grant: Grant): Promise<CommandSandbox> }): Confine =>
  async (level) =>
    (await sandbox.canConfine()) ? sandbox.at({ level, byPerson: true }) : undefined;
