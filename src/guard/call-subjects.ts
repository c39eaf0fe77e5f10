import { clipLine } from "../text/one-line.ts";
import { alwaysPattern } from "./always-pattern.ts";
import { commandForms } from "./command-forms.ts";
import { computedProgram } from "./computed-program.ts";
import { isStream } from "./destructive.ts";
import { literalPattern } from "./glob-match.ts";
import { displayPath, pathNames, resolvePath, type PathEnv, type ResolvedPath } from "./resolve-path.ts";
import { reachVerdict } from "./reach.ts";
import { runsLater } from "./runs-later.ts";
import { globMayNameSecret, isSecret } from "./secret-path.ts";
import { shellCommands, type ShellCommand } from "./shell-commands.ts";
import { writeTargets } from "./shell-writes.ts";
import type { GateCall, Verdict } from "./verdict.ts";

/** One thing a call touches, as the permission rules judge it: a file or one command of a script. */
export type SubjectItem = {
  mode: "path" | "command";
  /** The tool whose rules judge it, when not the call's own: a file a command writes is judged as a `write_file` of it. */
  tool?: string;
  /**
   * What rules and session approvals match. A path is allowed only when every name is (as written, and
   * where its symlinks land); a command when any is (as written, or with its program normalised).
   */
  names: string[];
  /** Forms of a command that only deny and ask rules match (`sudo rm x` is `rm x` to them, never to an allow). */
  aliases: string[];
  /** How it is shown in a prompt or a denial. */
  label: string;
  /** The default verdict, before the user's rules. */
  fallback: Verdict;
  /** The patterns an "always" answer records. */
  always: string[];
  /** Where a write would plant code that runs later (shown as a path is): only a rule naming it opens it. */
  place?: string;
  /** A command whose program is only known when it runs (`$(echo rm) x`). */
  computed?: true;
};

const SECRET_DEFAULT = "secret files are denied to every tool by default; allow one with a permission rule (--allow, or config.json)";
const RUNS_LATER = "code written there runs later, outside the sandbox (git's hooks and settings, shell start-up files, a project's .shiro/ and .mcp.json), so --yolo and broad rules cannot write it";
// Written exactly so (not `./true`), these change nothing by themselves; asking about them would defeat rules like `npm *`.
const NEUTRAL = new Set(["cd", "pushd", "popd", "true", "false", ":", "test", "[", "[["]);

/** Splits a call into the subjects the rules judge one by one (the strictest verdict wins). */
export function callSubjects(call: GateCall, env: PathEnv): SubjectItem[] {
  const items: SubjectItem[] = [];
  if (call.kind === "meta") return items;
  if (call.subject.action !== undefined) return [actionItem(call.subject.action)];
  const paths = call.subject.paths ?? [];
  if (call.subject.command === undefined || paths.length) {
    const kind = call.kind === "read" ? "read" : "write";
    const inside: Verdict = kind === "read" ? { decision: "allow" } : { decision: "ask" };
    for (const raw of paths.length ? paths : ["."]) items.push(pathItem(resolvePath(raw, env), inside, env, kind));
  }
  if (call.subject.command !== undefined) items.push(...commandItems(call.subject.command, env));
  return items;
}

/**
 * A call that is neither files nor a command (an MCP tool's): it asks by default — what it does is the
 * server's, and no annotation it gives grants anything — and "always" approves the tool for the session.
 */
const actionItem = (action: string): SubjectItem => ({ mode: "command", names: [action], aliases: [], label: clipLine(action, 200), fallback: { decision: "ask" }, always: ["*"] });

/**
 * A file, judged by default as `inside` when in the project, denied when secret or (written) where code
 * runs later. A file tool reaches what `reachVerdict` says; a command's file outside the project asks,
 * its sandbox keeping it in bounds.
 */
function pathItem(resolved: ResolvedPath, inside: Verdict, env: PathEnv, kind: "read" | "write" | "command"): SubjectItem {
  const names = pathNames(resolved, env);
  const label = names.join(" → ");
  const secret = isSecret(resolved, env.secrets);
  const planted = kind === "read" ? undefined : (runsLater(resolved.absolute, env) ?? runsLater(resolved.real, env));
  // A secret, like a place where code runs later, opens only to a rule naming it: an allow for its folder (`~/**`) does not.
  const place = secret ? displayPath(resolved.real, env) : planted === undefined ? undefined : displayPath(planted, env);
  const fallback: Verdict = secret
    ? secretDefault(label)
    : place !== undefined
      ? runsLaterDefault(label, place)
      : kind !== "command"
        ? reachVerdict(resolved, kind, inside, env)
        : resolved.insideRoot
          ? inside
          : { decision: "ask", reason: "outside the project" };
  return { mode: "path", names, aliases: [], label, fallback, always: names.map(literalPattern), ...(place !== undefined ? { place } : {}) };
}

function commandItems(command: string, env: PathEnv): SubjectItem[] {
  const items: SubjectItem[] = [];
  for (const cmd of shellCommands(command, { cwd: env.root, home: env.home })) {
    if (!isNeutral(cmd)) items.push(commandItem(cmd, env));
    items.push(...writeItems(cmd, env));
  }
  if (items.length === 0) return [{ mode: "command", names: [command], aliases: [], label: command, fallback: { decision: "ask" }, always: [literalPattern(command)] }];
  return items;
}

function commandItem(cmd: ShellCommand, env: PathEnv): SubjectItem {
  const forms = commandForms(cmd);
  const secret = referencedSecret(cmd, env);
  const fallback: Verdict = secret ? secretDefault(secret) : { decision: "ask" };
  const computed = computedProgram(cmd) ? { computed: true as const } : {};
  return { mode: "command", names: forms.names, aliases: forms.aliases, label: forms.names[0]!, fallback, always: [alwaysPattern(cmd, forms)], ...computed };
}

/**
 * A file a command writes (`> f`, `tee f`, `curl -o f`, `git diff --output=f`, `cp a f`) is judged as a
 * `write_file` of it, so an allow rule for the command does not let it write outside the project, a
 * secret, or a file the write_file rules keep. Inside the project a program's own operand (`cp a f`,
 * `touch f`) needs nothing more than the command's approval; a redirection or an output option asks
 * as a write_file would. `> /dev/null` and `2>&1` write no file.
 */
function writeItems(cmd: ShellCommand, env: PathEnv): SubjectItem[] {
  return writeTargets(cmd, (p) => env.fs.isDirectory(resolvePath(p, env, cmd.cwd).real)).flatMap((target) => {
    const resolved = resolvePath(target.path, env, cmd.cwd);
    if (isStream(resolved.absolute) || isStream(resolved.real)) return [];
    const item = pathItem(resolved, { decision: target.operand ? "allow" : "ask" }, env, "command");
    // Nothing to approve for write_file when the command's approval is all it needs.
    const always = item.fallback.decision === "allow" ? [] : item.always;
    return [{ ...item, tool: "write_file", label: `write_file ${item.label}`, always }];
  });
}

const isNeutral = (cmd: ShellCommand) => cmd.redirects.length === 0 && (cmd.words.length === 0 || NEUTRAL.has(cmd.words[0]!));

/** A secret file a command names anywhere (an argument, `--opt=value`, a redirection), as shown. */
function referencedSecret(cmd: ShellCommand, env: PathEnv): string | undefined {
  // The value of `--opt=value` first, so the denial names the file rather than the whole option.
  const candidates = [...cmd.written.flatMap((w) => (w.includes("=") ? [w.slice(w.indexOf("=") + 1), w] : [w])), ...cmd.redirects.map((r) => r.target)];
  for (const word of candidates) {
    if (word === "") continue;
    const resolved = resolvePath(word, env, cmd.cwd);
    if (isSecret(resolved, env.secrets)) return displayPath(resolved.real, env);
    if (globMayNameSecret(word, env.secrets)) return word;
  }
  return undefined;
}

function runsLaterDefault(label: string, place: string): Verdict {
  const rule = `permission rule deny ${label} (default: code that runs later)`;
  return { decision: "deny", rule, reason: `${rule} — ${RUNS_LATER}; only an allow rule naming the file, or a glob within ${place}, lifts this.` };
}

function secretDefault(label: string): Verdict {
  const rule = `permission rule deny ${label} (default: secret file)`;
  return { decision: "deny", rule, reason: `${rule} — ${SECRET_DEFAULT}.` };
}
