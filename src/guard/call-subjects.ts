import { literalPattern } from "./glob-match.ts";
import { displayPath, pathNames, resolvePath, type PathEnv } from "./resolve-path.ts";
import { globMayNameSecret, isSecret } from "./secret-path.ts";
import { shellCommands, type ShellCommand } from "./shell-commands.ts";
import type { GateCall, Verdict } from "./verdict.ts";

/** One thing a call touches, as the permission rules judge it: a file or one command of a script. */
export type SubjectItem = {
  mode: "path" | "command";
  /** What rules and session approvals match; a symlinked path has two (as written, where it lands). */
  names: string[];
  /** How it is shown in a prompt or a denial. */
  label: string;
  /** The default verdict, before the user's rules. */
  fallback: Verdict;
  /** The patterns an "always" answer records. */
  always: string[];
};

const SECRET_DEFAULT = "secret files are denied to every tool by default; allow one with a permission rule in config.json";

/** Splits a call into the subjects the rules judge one by one (the strictest verdict wins). */
export function callSubjects(call: GateCall, env: PathEnv): SubjectItem[] {
  const items: SubjectItem[] = [];
  if (call.kind === "meta") return items;
  const paths = call.subject.paths ?? [];
  if (call.subject.command === undefined || paths.length) {
    for (const raw of paths.length ? paths : ["."]) items.push(pathItem(raw, call, env));
  }
  if (call.subject.command !== undefined) items.push(...commandItems(call.subject.command, env));
  return items;
}

function pathItem(raw: string, call: GateCall, env: PathEnv): SubjectItem {
  const resolved = resolvePath(raw, env);
  const names = pathNames(resolved, env);
  const label = names.join(" → ");
  const fallback: Verdict = isSecret(resolved)
    ? secretDefault(label)
    : !resolved.insideRoot
      ? { decision: "ask", reason: "outside the project" }
      : call.kind === "read"
        ? { decision: "allow" }
        : { decision: "ask" };
  return { mode: "path", names, label, fallback, always: names.map(literalPattern) };
}

function commandItems(command: string, env: PathEnv): SubjectItem[] {
  const commands = shellCommands(command, { cwd: env.root, home: env.home }).filter((c) => !isNeutral(c));
  if (commands.length === 0) return [{ mode: "command", names: [command], label: command, fallback: { decision: "ask" }, always: [literalPattern(command)] }];
  return commands.map((cmd): SubjectItem => {
    const text = [...cmd.written, ...cmd.redirects.map((r) => `${r.fd ?? ""}${r.op} ${r.target}`)].join(" ");
    const secret = referencedSecret(cmd, env);
    const programAt = cmd.written.length - cmd.words.length;
    const program = cmd.written.slice(0, programAt + 1).join(" ");
    const always = program ? `${literalPattern(program)} *` : literalPattern(text);
    return { mode: "command", names: [text], label: text, fallback: secret ? secretDefault(secret) : { decision: "ask" }, always: [always] };
  });
}

// `cd x` and `A=b` change nothing by themselves; asking about them would defeat rules like `npm *`.
const isNeutral = (cmd: ShellCommand) =>
  cmd.words.length === 0 ? cmd.redirects.length === 0 : (cmd.name === "cd" || cmd.name === "pushd") && cmd.redirects.length === 0;

/** A secret file a command names anywhere (an argument, `--opt=value`, a redirection), as shown. */
function referencedSecret(cmd: ShellCommand, env: PathEnv): string | undefined {
  // The value of `--opt=value` first, so the denial names the file rather than the whole option.
  const candidates = [...cmd.written.flatMap((w) => (w.includes("=") ? [w.slice(w.indexOf("=") + 1), w] : [w])), ...cmd.redirects.map((r) => r.target)];
  for (const word of candidates) {
    if (word === "") continue;
    const resolved = resolvePath(word, env, cmd.cwd);
    if (isSecret(resolved)) return displayPath(resolved.real, env);
    if (globMayNameSecret(word)) return word;
  }
  return undefined;
}

function secretDefault(label: string): Verdict {
  const rule = `permission rule deny ${label} (default: secret file)`;
  return { decision: "deny", rule, reason: `${rule} — ${SECRET_DEFAULT}.` };
}
