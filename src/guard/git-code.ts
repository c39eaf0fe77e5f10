import type { GitInvocation } from "./git-invocation.ts";
import { quoteWords } from "./quote-words.ts";

// Settings whose value git runs as a shell command (`sh -c "$value" …`), by key (lower-cased).
const RUNS_VALUE = [
  /^core\.(pager|editor|sshcommand|gitproxy|askpass|fsmonitor|alternaterefscommand)$/,
  /^(pager\..+|sequence\.editor|diff\.external|interactive\.difffilter|uploadpack\.packobjectshook|web\.browser)$/,
  /^(diff\..+\.(textconv|command)|(diff|merge)tool\..+\.(cmd|path)|merge\..+\.driver|filter\..+\.(clean|smudge|process))$/,
  /^(gpg\.(.+\.)?program|credential\.(.+\.)?helper|remote\..+\.(uploadpack|receivepack)|(browser|man)\..+\.(cmd|path)|tar\..+\.command)$/,
  /^sendemail\.(sendmailcmd|tocmd|cccmd|smtpserver)$/,
];
// Settings that make git run code kept elsewhere: the hooks in a folder, a config file it includes.
const POINTS_AT_CODE = /^(core\.hookspath|include\.path|includeif\..+\.path)$/;
// A shell command only when it starts with `!`.
const BANG_COMMAND = /^submodule\..+\.update$/;
const BOOLEAN = /^(true|false|yes|no|on|off|1|0)$/i;

/**
 * The commands git would run because of how it was started: the value of `-c core.pager='…'`,
 * `-c diff.external=…`, `-c filter.x.clean=…` and the like as the script it is, a credential helper as
 * `git credential-<name>`, and for settings that point git at code elsewhere (`core.hooksPath=dir`,
 * `include.path=file`, `--exec-path=dir`) the place that code comes from, as a program of its own. They
 * are judged as commands of the script, so a rule for `git *` does not let them through.
 */
export function gitCode(git: GitInvocation): string[] {
  const scripts: string[] = [];
  for (const { key, value } of git.settings) {
    if (value === "") continue;
    if (POINTS_AT_CODE.test(key)) scripts.push(quoteWords([value]));
    else if (BANG_COMMAND.test(key)) {
      if (value.startsWith("!")) scripts.push(value.slice(1));
    } else if (key === "core.fsmonitor" && BOOLEAN.test(value)) continue; // git's own daemon, no hook
    else if (/^credential\.(.+\.)?helper$/.test(key)) scripts.push(credentialHelper(value));
    else if (RUNS_VALUE.some((pattern) => pattern.test(key))) scripts.push(value);
  }
  if (git.execPath) scripts.push(quoteWords([`${git.execPath}/git-${git.sub ?? "*"}`]));
  return scripts;
}

/** git runs `!…` as a shell snippet, an absolute path as it is, and any other name as `git credential-<name>`. */
function credentialHelper(value: string): string {
  if (value.startsWith("!")) return value.slice(1);
  return value.startsWith("/") ? value : `git credential-${value}`;
}
