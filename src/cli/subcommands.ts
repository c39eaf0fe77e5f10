import { parseArgs } from "node:util";
import { join } from "node:path";
import { sessionsJson, sessionsTable } from "../ui/sessions-table.ts";
import { createSessionStore } from "../store/session-store.ts";
import { parseErrorLine } from "./args.ts";
import { UsageError } from "../exit/usage-error.ts";
import type { Config } from "./config.ts";
import { resolveId } from "../services/open-session.ts";
import { INSPECT_USAGE, SESSIONS_USAGE, subcommandHelp } from "./subcommand-help.ts";

// Through a pipe the exit that follows a subcommand would cut what is still buffered (at 64 KiB):
// the last write's callback says everything before it is out.
let written: Promise<void> = Promise.resolve();
const out = (line: string) => {
  written = new Promise<void>((done) => process.stdout.write(line + "\n", () => done()));
};
const err = (line: string) => process.stderr.write(line + "\n");

/** `shiro sessions`, `shiro inspect`, `shiro export`, `shiro import`, `shiro registry`, `shiro doctor`, `shiro undo`: script-friendly, no model involved. */
export async function runSubcommand(name: string, args: string[], config: Config): Promise<number> {
  try {
    return await dispatch(name, args, config);
  } finally {
    await written;
  }
}

async function dispatch(name: string, args: string[], config: Config): Promise<number> {
  const help = subcommandHelp(name, args);
  if (help !== undefined) {
    out(help);
    return 0;
  }
  const store = createSessionStore(join(config.home, "sessions"));
  switch (name) {
    case "sessions": {
      const { values } = parse(args, { json: { type: "boolean" }, all: { type: "boolean" } }, 0, SESSIONS_USAGE);
      const all = values.all ?? false;
      const { sessions, warnings } = await store.list({ cwd: process.cwd(), all });
      warnings.forEach((w) => err(`! ${w}`));
      if (values.json) {
        out(JSON.stringify(sessionsJson(sessions)));
        return 0;
      }
      const none = all ? "no saved sessions" : "no saved sessions in this folder (shiro sessions --all lists every folder's)";
      out(sessions.length ? sessionsTable(sessions, new Date(), sessions.length, process.stdout.columns || Infinity, { folders: all }) : none);
      return 0;
    }
    case "inspect": {
      const { values, positionals } = parse(args, { turns: { type: "boolean" }, diff: { type: "boolean" }, full: { type: "boolean" }, json: { type: "boolean" } }, 2, INSPECT_USAGE);
      if (!positionals[0]) throw new UsageError(`inspect needs a session id from shiro sessions (${INSPECT_USAGE})`);
      const call = positionals[1] === undefined ? undefined : Number(positionals[1]);
      if (call !== undefined && !Number.isInteger(call)) throw new UsageError(`a call is a number from shiro inspect <session> --turns, got "${positionals[1]}"`);
      // Loaded here, not at start-up: listing sessions needs neither the request composer nor the registry.
      const [{ InspectError, inspectFlagsError, inspectView }, { rebuildBody }, { createWireLedger }] = await Promise.all([
        import("../inspect/inspect-view.ts"),
        import("../context/rebuild-body.ts"),
        import("../context/wire-ledger.ts"),
      ]);
      const opts = { call, turns: values.turns ?? false, diff: values.diff ?? false, full: values.full ?? false, json: values.json ?? false };
      const wrong = inspectFlagsError(opts);
      if (wrong) throw new UsageError(`${wrong} (${INSPECT_USAGE})`);
      const id = await resolveId(store, positionals[0], err);
      const read = await store.read(id);
      if (!read.ok) throw new UsageError(read.message);
      read.warnings.forEach(err);
      if (read.damaged) err(`! the log of session ${read.state.id} is damaged at line ${read.damaged.line} (${read.damaged.reason}); what follows is the ${read.events.length} lines before it`);
      const ledger = createWireLedger();
      const facts = { bytes: store.sizeOf(id), lines: read.events.length, ...(read.damaged ? { damaged: read.damaged } : {}) };
      // The children its `task` calls started: each a log of its own, read for its row.
      const childIds = read.events.flatMap((e) => (e.type === "result" && e.child ? [e.child.sessionId] : []));
      const children = new Map((await Promise.all(childIds.map(async (c) => [c, await store.read(c)] as const))).flatMap(([c, r]) => (r.ok ? [[c, r.events] as const] : [])));
      let view: string;
      try {
        view = inspectView(read.events, facts, { ...opts, prefix: positionals[0], columns: process.stdout.columns || Infinity, rebuild: (c) => rebuildBody(c, ledger), children });
      } catch (e) {
        if (e instanceof InspectError) throw new UsageError(e.message);
        throw e;
      }
      out(view);
      return 0;
    }
    case "registry": {
      const [{ registryCommand }, { DEFAULT_REGISTRY_URL }, { askYesNo }] = await Promise.all([
        import("../registry/registry-command.ts"),
        import("../registry/limits.ts"),
        import("./ask-yes-no.ts"),
      ]);
      return registryCommand(args, {
        command: "shiro registry",
        out,
        err,
        confirm: process.stdin.isTTY ? askYesNo : undefined,
        home: config.home,
        registryUrl: config.registryUrl ?? DEFAULT_REGISTRY_URL,
      });
    }
    case "doctor": {
      parse(args, {}, 0, "usage: shiro doctor");
      const [{ doctorReport }, { detectSandbox }, { landlockAbi }] = await Promise.all([import("./doctor.ts"), import("../sandbox/detect-sandbox.ts"), import("../sandbox/landlock-syscalls.ts")]);
      doctorReport(config, process.env, await detectSandbox({ backend: config.sandboxBackend }), landlockAbi()).forEach((line) => out(line));
      return 0;
    }
    case "undo": {
      const { undoCommand } = await import("./undo-command.ts");
      return undoCommand(args, config, { out, err, cwd: process.cwd() });
    }
    case "export": {
      const { exportCommand } = await import("./export-command.ts");
      return exportCommand(args, store, { out, err });
    }
    case "import": {
      const { importCommand } = await import("./import-command.ts");
      return importCommand(args, store, { out, err, cwd: process.cwd() });
    }
    case "mcp": {
      const { mcpCommand } = await import("./mcp-subcommand.ts");
      return mcpCommand(args, config, { out, err, cwd: process.cwd() });
    }
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

type BoolOptions = Record<string, { type: "boolean" }>;


function parse<O extends BoolOptions>(args: string[], options: O, maxPositionals: number, usage: string) {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true }) as { values: { [K in keyof O]?: boolean }; positionals: string[] };
    if (parsed.positionals.length > maxPositionals) throw new Error(`unexpected argument "${parsed.positionals[maxPositionals]}"`);
    return parsed;
  } catch (e) {
    throw new UsageError(parseErrorLine((e as Error).message, usage, Object.keys(options)));
  }
}
