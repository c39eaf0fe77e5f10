import { homedir } from "node:os";
import type { Authorization, Authorize } from "../tools/authorize-request.ts";
import type { AnyTool, PreviewContext } from "../tools/tool.ts";
import type { Redactor } from "../tools/tool-host.ts";
import { callSubjects, type SubjectItem } from "./call-subjects.ts";
import { createGuard } from "./guard.ts";
import { judgeSubject, stricter } from "./permissions.ts";
import { absolutePath, diskFs, type PathEnv, type PathFs } from "./resolve-path.ts";
import type { Reach } from "./reach.ts";
import type { Rule } from "./rules.ts";
import type { SecretNames } from "./secret-names.ts";
import { alwaysAllows, describeAllows, type SessionAllows } from "./session-allows.ts";
import type { Check, GateCall, Verdict } from "./verdict.ts";

/** What the REPL shows when a call needs approval. */
export type AskRequest = {
  call: GateCall;
  /** The model's id for the call, as the run's events name it (an editor shows the question on that call). */
  callId?: string;
  /** The tool's preview (the diff a write would make), when it has one. */
  preview?: string;
  /** The call in one line: `write_file notes/x.md`, `bash: git push`. */
  summary: string;
  /** What an "always" answer would approve for this session: `git log *`, `write_file out.txt`. */
  always: string[];
};
export type AskAnswer = { answer: "yes" } | { answer: "no"; reason?: string } | { answer: "always" };

export type AuthorizeOptions = {
  rules: readonly Rule[];
  /** Installed plugins' deny rules, evaluated right after the guard; only their deny and ask count. */
  extraChecks?: readonly Check[];
  /**
   * Approves every "ask" but a person's (outside the project's reach); cannot reach the guard, deny rules or plugin denials.
   * A function is asked at each call: an editor switches a session's mode while it runs (src/acp/).
   */
  yolo: boolean | (() => boolean);
  /** Asks the person (REPL only); absent in print mode, where an "ask" becomes a denial. */
  ask?: (request: AskRequest) => Promise<AskAnswer>;
  /** True when an OS sandbox is in force: then a command nobody can approve still runs, read-only. */
  confine?: () => Promise<boolean>;
  sessionAllows: SessionAllows;
  /** The added folders and `$SHIRO_HOME`: what file tools reach beyond the project. */
  reach?: Reach;
  /** Defaults to the real home folder and disk; tests point them elsewhere. */
  home?: string;
  fs?: PathFs;
  /** The session's secret names (config `secretFiles` too); the built-in ones when unset. */
  secrets?: SecretNames;
};

/** The permission chain: guard → plugins' checks → session approvals → rules → asking (or yolo). */
export function createAuthorize(opts: AuthorizeOptions): Authorize {
  const home = opts.home ?? homedir();
  const fs = opts.fs ?? diskFs;
  const guard = createGuard({ home, fs, secrets: opts.secrets, shiroHome: opts.reach?.shiroHome });
  const yolo = typeof opts.yolo === "function" ? opts.yolo : () => opts.yolo === true;
  return async ({ tool, args, root, hookAsk, redactor, files, allows: turn, asking, who, callId, readOnly }) => {
    if (tool.kind === "meta" && hookAsk === undefined) return { allowed: true };
    const env: PathEnv = { root, home, fs, secrets: opts.secrets, reach: opts.reach };
    let call: GateCall;
    try {
      const subject = tool.subject(args);
      call = { tool: tool.name, kind: tool.kind, args, root, subject: { ...subject, ...(subject.paths ? { paths: subject.paths.map((p) => absolutePath(p, root, home)) } : {}) } };
    } catch (err) {
      return { allowed: false, reason: `cannot tell what ${tool.name} would touch (${(err as Error).message}), so it was not run.` };
    }

    let verdict: Verdict = guard(call) ?? { decision: "allow" };
    for (const check of opts.extraChecks ?? []) {
      if (verdict.decision === "deny") break;
      const extra = check(call);
      if (extra && extra.decision !== "allow") verdict = stricter(verdict, extra);
    }
    if (verdict.decision === "deny") return { allowed: false, reason: verdict.reason };

    const items = callSubjects(call, env);
    const allowed = turn?.length ? opts.sessionAllows.with(turn) : opts.sessionAllows;
    const judged = items.map((item) => ({ item, verdict: judgeSubject(call.tool, item, opts.rules, allowed, home) }));
    verdict = judged.map((j) => j.verdict).reduce(stricter, verdict);
    if (verdict.decision === "deny") return { allowed: false, reason: verdict.reason };
    const planning = readOnly === true && tool.kind === "exec";
    if (planning && !(await opts.confine?.())) return { allowed: false, reason: PLAN_UNCONFINED };
    // An allow for a command comes from a person's rule or "always" (a command's default is to ask).
    const personal = verdict.decision === "ask" && verdict.person === true;
    // A hook's ask comes after every deny (the guard, plugins, rules) and is never waved through by a rule or --yolo.
    if (hookAsk === undefined && (verdict.decision === "allow" || (yolo() && !personal))) return approved(tool, verdict.decision === "allow", planning);
    // Nothing a read-only sandbox lets a command do needs anyone's approval: a plan is made without asking.
    if (planning && hookAsk === undefined) return { allowed: true, sandbox: "read-only" };

    const pending = judged.filter((j) => j.verdict.decision === "ask");
    const asked = pending.length ? pending.map((j) => j.item) : items;
    const summary = summarise(call, asked);
    if (hookAsk !== undefined && !opts.ask) return { allowed: false, reason: `a PreToolUse hook asks for a person's approval (${hookAsk}), and this run cannot ask (print mode).` };
    if (!opts.ask) {
      // Nothing a read-only sandbox lets a command do needs anyone's approval.
      if (tool.kind === "exec" && (await opts.confine?.())) return { allowed: true, sandbox: "read-only" };
      // Name only the parts that need approval (`touch x` of `echo a && touch x`): that is what a rule must allow.
      const needing = isCommand(call) ? `${call.tool}: ${asked.map(label).join(" and ")} ${asked.length > 1 ? "need" : "needs"}` : `${summary} needs`;
      const how = personal
        ? "Only a person opens what lies outside the project to the file tools, --yolo does not: an allow rule naming it (--allow 'read_file:~/notes/**'), --add-dir, or sandbox.readable in config.json."
        : "Allow it with a permission rule (--allow, or config.json) or run with --yolo.";
      return { allowed: false, reason: `${needing} approval, and this run cannot ask (print mode). ${how}` };
    }
    // From the subjects already judged: splitting the call again would re-parse the command and re-resolve every path.
    const allows = alwaysAllows(call.tool, items);
    const preview = await previewOf(tool, args, { root, signal: new AbortController().signal, ...(files ? { files } : {}) }, redactor);
    const shown = `${who === undefined ? "" : `the ${who} agent: `}${hookAsk === undefined ? summary : `${summary} (a hook asks: ${hookAsk})`}`;
    asking?.(shown);
    const answer = await opts.ask({ call, ...(callId !== undefined ? { callId } : {}), summary: shown, always: describeAllows(call.tool, allows), ...(preview !== undefined ? { preview } : {}) });
    if (answer.answer === "always") for (const allow of allows) opts.sessionAllows.add(allow.tool, [allow.pattern]);
    if (answer.answer !== "no") return approved(tool, true, planning);
    return { allowed: false, reason: answer.reason ? `the user declined: ${answer.reason}` : `the user declined ${summary}.` };
  };
}

/** An approved command may write the project (within the sandbox's mode; never while planning); one a person approved may use the network. */
const approved = (tool: AnyTool, byPerson: boolean, planning: boolean): Authorization =>
  tool.kind === "exec" ? { allowed: true, sandbox: planning ? "read-only" : "workspace-write", ...(byPerson ? { byPerson: true } : {}) } : { allowed: true };

const PLAN_UNCONFINED = "in plan mode a command runs only in a read-only OS sandbox, and commands run without one here (--sandbox off, or none available: see shiro doctor); leave plan mode to run it.";

/** The call in one line; a command is shown whole (the REPL asks about all of it). */
function summarise(call: GateCall, items: SubjectItem[]): string {
  return isCommand(call) ? `${call.tool}: ${call.subject.command}` : `${call.tool} ${items.map(label).join(", ")}`;
}

const isCommand = (call: GateCall) => call.subject.command !== undefined && !call.subject.paths?.length;

const label = (item: SubjectItem) => item.label + (item.fallback.decision === "ask" && item.fallback.reason ? ` (${item.fallback.reason})` : "");

/** The diff a write would make, as its result will show it: the secrets its markers stand for put back, then redacted. */
async function previewOf(tool: AnyTool, args: unknown, ctx: PreviewContext, redactor?: Redactor): Promise<string | undefined> {
  if (!tool.preview) return undefined;
  try {
    const preview = await tool.preview(args, { ...ctx, ...(redactor ? { redactions: (text: string) => redactor.find(text) } : {}) });
    return preview === undefined || !redactor ? preview : redactor.text(preview);
  } catch {
    return undefined; // a preview is a courtesy; the prompt still works without it
  }
}
