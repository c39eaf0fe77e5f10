import { homedir } from "node:os";
import { UsageError } from "../exit/usage-error.ts";
import type { Rule } from "../guard/rules.ts";
import { createSandbox, type Sandbox } from "../sandbox/create-sandbox.ts";
import type { Config } from "./settings.ts";

type Needs = { warn: (line: string) => void; isSecretPath: (path: string) => boolean; rules: readonly Rule[]; programs: () => readonly string[] };

/** The run's command sandbox as config and the environment choose it; a backend forced by name must run here. */
export async function openSandbox(config: Config, needs: Needs): Promise<Sandbox> {
  const sandbox = createSandbox({
    mode: config.sandbox,
    network: config.network,
    home: homedir(),
    shiroHome: config.home,
    writable: config.writableDirs,
    readable: config.readableDirs,
    warn: needs.warn,
    isSecretPath: needs.isSecretPath,
    rules: needs.rules,
    backend: config.sandboxBackend,
    programs: needs.programs,
  });
  await refuseUnavailableBackend(config, sandbox);
  return sandbox;
}

/** A backend forced by `sandbox.backend` or SHIRO_SANDBOX_BACKEND must run: never a silent fallback to none. */
async function refuseUnavailableBackend(config: Config, sandbox: Sandbox): Promise<void> {
  if (config.sandbox === "off" || (config.sandboxBackend !== "bwrap" && config.sandboxBackend !== "landlock")) return;
  const support = await sandbox.support();
  if (support !== "off" && support.kind === "none") throw new UsageError(`sandbox backend ${config.sandboxBackend} cannot run here: ${support.why}; ${support.fix}`);
}
