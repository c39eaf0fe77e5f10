import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Grant, SandboxLevel } from "../session/sandbox-level.ts";
import type { CommandSandbox } from "../tools/tool.ts";
import type { McpServerDef } from "./mcp-types.ts";

// The sandbox reads its options from fd 4 (kept out of /proc/<pid>/cmdline); a server's process has only
// stdin, stdout and stderr, so a shell opens fd 4 on a private file, removes it, and becomes the sandbox.
const WITH_FD4 = 'exec 4<"$1/args"; rm -rf "$1"; shift; exec "$@"';

/**
 * A stdio server's definition run inside the OS sandbox at `level`, as a command approved by the person
 * (their config asked for it): the project readable (writable at `workspace-write`), the home and
 * secrets hidden, the network as for an approved command.
 */
export function confinedServer(def: Extract<McpServerDef, { kind: "stdio" }>, sandbox: CommandSandbox, root: string): McpServerDef {
  const argv = [def.command, ...def.args];
  const prepared = sandbox.prepare(argv, root, argv.join(" "));
  if (!prepared.fd4) return { ...def, command: prepared.argv[0]!, args: prepared.argv.slice(1) };
  const dir = mkdtempSync(join(tmpdir(), "shiro-mcp-"));
  chmodSync(dir, 0o700);
  writeFileSync(join(dir, "args"), prepared.fd4, { mode: 0o600 });
  return { ...def, command: "/bin/sh", args: ["-c", WITH_FD4, "sh", dir, ...prepared.argv] };
}

/** The sandbox a server asking for `level` runs in, or undefined when no OS sandbox can run here. */
export type Confine = (level: SandboxLevel) => Promise<CommandSandbox | undefined>;

/** The run's command sandbox, for servers: the person's config asked for it, so the network is as for a command they approved. */
export const confineWith =
  (sandbox: { canConfine(): Promise<boolean>; at(grant: Grant): Promise<CommandSandbox> }): Confine =>
  async (level) =>
    (await sandbox.canConfine()) ? sandbox.at({ level, byPerson: true }) : undefined;
