import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { confineWith } from "../mcp/confine-server.ts";
import { openMcp } from "../mcp/open-mcp.ts";
import { APPROVE_HOW, PROJECT_FILE, skippedNotice } from "../mcp/project-servers.ts";
import { lazyApprovals } from "../store/approvals.ts";
import { createSandbox } from "../sandbox/create-sandbox.ts";
import { UsageError } from "../exit/usage-error.ts";
import { MCP_USAGE } from "./subcommand-help.ts";
import { didYouMean } from "../text/nearest.ts";
import { plural } from "../text/plural.ts";
import { envRules, toolEnv } from "../secrets/tool-env.ts";
import { mcpTable } from "../ui/mcp-table.ts";
import { parseErrorLine } from "./args.ts";
import { mcpServers, type Config } from "./config.ts";


/**
 * `shiro mcp list`: every configured server started, initialised and its tools listed, one row each.
 * `shiro mcp test <name>`: that one, with a verdict; exit 0 when it works, 1 when it does not.
 * A project's `.mcp.json` servers count only once approved (as in print mode).
 */
export async function mcpCommand(args: string[], config: Config, io: { out: (line: string) => void; err: (line: string) => void; cwd: string }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { "mcp-config": { type: "string", multiple: true } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(parseErrorLine((e as Error).message, MCP_USAGE, ["mcp-config"]));
  }
  const [action, name, extra] = parsed.positionals;
  if ((action !== "list" && action !== "test") || (action === "list" ? name !== undefined : name === undefined) || extra !== undefined) throw new UsageError(MCP_USAGE);
  const files = parsed.values["mcp-config"] ?? [];
  const own = Object.fromEntries(config.mcp.servers.map((e) => [e.name, e.config]));
  const servers = await mcpServers(own, join(config.home, "config.json"), files);
  const mcp = await openMcp({
    mcp: { enabled: true, explicit: files.length > 0, servers },
    cwd: io.cwd,
    approvals: lazyApprovals({ home: config.home, save: false, warn: (line) => io.err(`! ${line}`) }),
    baseEnv: toolEnv(process.env, envRules(config)).env,
    env: process.env,
    // Each failure is said once, by the listing or the verdict below (not a warning as well).
    mode: "check",
    warn: (line) => io.err(`! ${line}`),
    ...(name !== undefined ? { only: name } : {}),
    confine: confineWith(createSandbox({ mode: config.sandbox, backend: config.sandboxBackend, network: config.network, home: homedir(), shiroHome: config.home, writable: config.writableDirs, readable: config.readableDirs, warn: () => {} })),
  });
  try {
    await mcp.servers.settled();
    const views = mcp.servers.views();
    if (action === "list") {
      mcpTable(views, process.stdout.columns || Infinity).forEach(io.out);
      if (mcp.unapproved.length) io.out(skippedNotice(mcp.unapproved, "not started"));
      const disabled = servers.filter((e) => e.config.enabled === false).map((e) => e.name);
      if (views.length === 0 && disabled.length) io.out(`no MCP server is enabled: ${disabled.join(", ")} ${disabled.length > 1 ? "have" : "has"} "enabled": false (shiro mcp test <name> starts one anyway)`);
      else if (views.length === 0 && !mcp.unapproved.length) io.out("no MCP servers configured (mcpServers in config.json, --mcp-config, or an approved .mcp.json; docs/mcp.md)");
      return 0;
    }
    const view = views.find((v) => v.name === name);
    if (!view && mcp.unapproved.length) {
      io.out(`✗ ${name}: ${PROJECT_FILE} defines it, not approved as it stands (${APPROVE_HOW})`);
      return 1;
    }
    if (!view) throw new UsageError(`no MCP server "${name}"${didYouMean(name!, mcp.known) || (mcp.known.length ? ` (configured: ${mcp.known.join(", ")})` : " is configured")}`);
    if (view.status !== "connected") {
      io.out(`✗ ${name}: ${view.error ?? view.status}`);
      return 1;
    }
    // Up and listed is not yet answering: a ping after the handshake says it still takes requests.
    const answered = await mcp.servers.ping(name!).then(
      (ms) => ({ ms }),
      (err: Error) => ({ error: err.message }),
    );
    if ("error" in answered) {
      io.out(`✗ ${name}: it started and listed its tools, then did not answer a ping: ${answered.error}`);
      return 1;
    }
    const tools = mcp.servers.tools().map((t) => t.name);
    io.out(`✓ ${name}: ${view.serverInfo?.name ?? "?"}${view.serverInfo?.version ? ` ${view.serverInfo.version}` : ""}, protocol ${view.protocolVersion}, ping ${Math.max(1, Math.round(answered.ms))} ms, ${plural(tools.length, "tool")} offered${view.listed !== tools.length ? ` (of ${view.listed} listed)` : ""}${tools.length ? `: ${tools.join(", ")}` : ""}`);
    return 0;
  } finally {
    await mcp.servers.close();
  }
}
