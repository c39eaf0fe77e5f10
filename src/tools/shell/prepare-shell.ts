import { shellArgv } from "../../process/command-argv.ts";
import type { PreparedCommand } from "../../process/prepared-command.ts";
import type { ToolContext } from "../tool.ts";

/** `bash -c <command>` in the project, in the call's sandbox, or as it is where there is none (unit tests). */
export const prepareShell = (command: string, ctx: ToolContext): PreparedCommand =>
  ctx.sandbox?.prepare(shellArgv(command), ctx.root, command) ?? { argv: shellArgv(command), check: () => ({ notes: [], denied: false }) };
