import { existsSync } from "node:fs";
import { join } from "node:path";
import { describeSupport, type SandboxSupport } from "../sandbox/detect-sandbox.ts";
import { landlockGaps } from "../sandbox/landlock-gaps.ts";
import { VERSION } from "../version.ts";
import type { Config } from "./config.ts";
import { DEFAULT_BASE_URL } from "../wire/base-url.ts";

const MODE_MEANING = {
  "workspace-write": "approved commands may write the project; the others run read-only",
  "read-only": "every command runs read-only",
  off: "commands run without a sandbox, under the guard alone",
} as const;

const NETWORK_MEANING = {
  on: "every command (--network, or network: true in config.json)",
  approved: "only commands a person approved (a key press, an allow rule); --network gives it to all",
  off: "cut for every command, approved or not (--no-network, or network: false in config.json)",
} as const;

/**
 * `shiro doctor`: what this run would use and why — the version, the sandbox in force, the config
 * file read, the state folder, the base URL and whether a key is set (never its value). Pure.
 */
export function doctorReport(config: Config, env: NodeJS.ProcessEnv, support: SandboxSupport, landlockAbi = 0): string[] {
  const configPath = join(config.home, "config.json");
  const from = (name: string, fileKey: string) => (env[name] ? `from ${name}` : `from ${fileKey} in config.json`);
  const sandbox = config.sandbox === "off" ? "off (sandbox: \"off\" in config.json)" : describeSupport(support);
  return [
    `shiro ${VERSION} (bun ${Bun.version}, ${process.platform} ${process.arch})`,
    `sandbox: ${sandbox}`,
    `  mode ${config.sandbox}: ${support.kind === "none" && config.sandbox !== "off" ? MODE_MEANING.off : MODE_MEANING[config.sandbox]}`,
    ...(support.kind === "landlock" && config.sandbox !== "off"
      ? [
          `  an approved command under Landlock: ${support.gate === true ? "may make and remove anything in the project, its top folder included; the gate keeps its secret files unreadable (hard links too) and git's config and hooks, .shiro/ and .mcp.json read-only" : `cannot make or remove entries directly in a folder holding a secret or git's config (the gate cannot run: ${support.gate})`}`,
          `  not held under Landlock: ${landlockGaps(support.abi, support.gate).join("; ")}`,
        ]
      : []),
    ...(process.platform === "linux" ? [`  the kernel's Landlock: ${landlockAbi ? `ABI ${landlockAbi}` : "none"}${config.sandboxBackend === "auto" ? "" : ` (sandbox.backend ${config.sandboxBackend})`}`] : []),
    `  network in the sandbox: ${NETWORK_MEANING[config.network]}`,
    `config: ${configPath}${existsSync(configPath) ? " (read)" : " (none; defaults in force)"}`,
    `state: ${config.home}${env.SHIRO_HOME ? " (SHIRO_HOME)" : ""}`,
    `base URL: ${config.baseUrl ? `${config.baseUrl} (${from("OPENAI_BASE_URL", "baseUrl")})` : `${DEFAULT_BASE_URL} (default)`}`,
    `model: ${config.model}${env.SHIRO_MODEL ? " (SHIRO_MODEL)" : ""}`,
    `API key: ${config.apiKey ? "set (OPENAI_API_KEY)" : "not set: export OPENAI_API_KEY"}`,
  ];
}
