import { homedir } from "node:os";
import type { AskAnswer, AskRequest } from "../guard/authorize.ts";
import { createAuthorize } from "../guard/authorize.ts";
import { everyCheck } from "../guard/every-check.ts";
import { createReadCheck } from "../guard/read-check.ts";
import type { Reach } from "../guard/resolve-path.ts";
import type { Rule } from "../guard/rules.ts";
import { secretLinkCheck } from "../guard/secret-link-check.ts";
import type { SecretNames } from "../guard/secret-names.ts";
import { SessionAllows } from "../guard/session-allows.ts";
import { createWriteCheck } from "../guard/write-check.ts";
import type { LivePluginChecks } from "../registry/live-plugin-checks.ts";
import type { Sandbox } from "../sandbox/create-sandbox.ts";
import { createKnownSecretValues } from "../secrets/known-secret-values.ts";
import { createLiveRedactor } from "../secrets/live-redactor.ts";
import { API_KEY_VAR, type ToolEnv } from "../secrets/tool-env.ts";
import type { Authorize } from "../tools/authorize-request.ts";
import type { ToolHost } from "../tools/tool-host.ts";
import type { ClientFiles } from "../tools/tool.ts";

export type ToolAccessOptions = {
  cwd: string;
  apiKey: string;
  rules: Rule[];
  reach: Reach;
  /** `--yolo`, or asked at each call (an editor's session mode). */
  yolo: boolean | (() => boolean);
  secretFiles: SecretNames;
  sandbox: Sandbox;
  plugins: LivePluginChecks;
  /** The variables tools get, and the secret ones' values kept out of every output. */
  secrets: ToolEnv;
  /** The REPL asks the person; print mode has no `ask`, so an ask becomes a denial. */
  ask?: (request: AskRequest) => Promise<AskAnswer>;
  interruptSignal?: () => AbortSignal;
  /** The editor the file tools read and write through (an ACP client); the disk when absent. */
  files?: ClientFiles;
};

/** What every tool call of every agent passes and runs with: the one gate, and the host (sandbox, checks, environment, redactor). */
export function createToolAccess(o: ToolAccessOptions): { authorize: Authorize; host: ToolHost } {
  const { rules, reach, secretFiles: secrets, sandbox } = o;
  // Hard links to secrets are refused to the file tools as the secrets are (the sandbox knows them by identity).
  const links = secretLinkCheck(sandbox.secretLink);
  const checks = [links, everyCheck(o.plugins.checks)];
  const gate = createAuthorize({ rules, reach, extraChecks: checks, yolo: o.yolo, sessionAllows: new SessionAllows(), ...(o.ask ? { ask: o.ask } : {}), confine: sandbox.canConfine, secrets });
  // Tools never see a secret variable, and no output shows one's value: not the model, nor a person, nor a file.
  const known = createKnownSecretValues({ root: o.cwd, home: homedir(), isSecretPath: secrets.isSecretPath, envValues: o.secrets.values, projectSecrets: () => sandbox.projectSecrets(o.cwd) });
  return {
    // A plugin installed mid-session (/registry add, or another terminal) guards the very next call.
    authorize: async (request) => {
      await o.plugins.refresh();
      return gate(request);
    },
    host: {
      interruptSignal: o.interruptSignal,
      sandbox: sandbox.at,
      readDenied: createReadCheck({ rules, reach, extraChecks: checks, secrets }),
      secretGlobs: secrets.globs,
      writeRefused: createWriteCheck({ rules, reach, secrets, extraChecks: [links] }),
      env: o.secrets.env,
      redactor: createLiveRedactor(() => [{ name: API_KEY_VAR, value: o.apiKey }, ...known()]),
      ...(o.files ? { files: o.files } : {}),
    },
  };
}
