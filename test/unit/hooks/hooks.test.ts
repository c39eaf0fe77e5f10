/** The pure half of hooks: which tools a matcher fits, what a hook's exit and output decide, the config's shape. */
import { describe, expect, test } from "bun:test";
import { hookDefinitions, hooksSchema, notifyDefinitions } from "../../../src/hooks/hook-config.ts";
import { hookOutcome, type HookExit } from "../../../src/hooks/hook-outcome.ts";
import { matchesTool } from "../../../src/hooks/match-tool.ts";
import { configFileSchema } from "../../../src/cli/config.ts";
import { reduceSession, SessionLogError } from "../../../src/session/reduce-session.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";

describe("matchesTool", () => {
  test("a name, alternatives, `*` globs; none, empty or `*` fit every tool; any case", () => {
    expect(matchesTool("bash", "bash")).toBe(true);
    expect(matchesTool("bash", "bash_x")).toBe(false);
    expect(matchesTool("edit_file|write_file", "write_file")).toBe(true);
    expect(matchesTool("edit_file|write_file", "read_file")).toBe(false);
    expect(matchesTool("mcp__github__*", "mcp__github__create_issue")).toBe(true);
    expect(matchesTool("mcp__github__*", "mcp__gitlab__create_issue")).toBe(false);
    expect(matchesTool("mcp__*__delete*", "mcp__db__delete_row")).toBe(true);
    // A matcher brought from Claude Code: its tool names stand for shiro's, its `.*` for `*`.
    expect(matchesTool("Edit|Write", "edit_file")).toBe(true);
    expect(matchesTool("Edit|Write", "write_file")).toBe(true);
    expect(matchesTool("Edit", "apply_patch")).toBe(true);
    expect(matchesTool("Edit|Write", "read_file")).toBe(false);
    expect(matchesTool("Read", "read_file")).toBe(true);
    expect(matchesTool("mcp__github__.*", "mcp__github__create_issue")).toBe(true);
    expect(matchesTool("mcp__github__.*", "mcp__gitlab__create_issue")).toBe(false);
    expect(matchesTool(".*", "bash")).toBe(true);
    expect(matchesTool("a*a", "a")).toBe(false);
    for (const all of [undefined, "", "*", " * "]) expect(matchesTool(all, "anything")).toBe(true);
    expect(matchesTool("Bash", "bash")).toBe(true);
  });
});

const PRE = { event: "PreToolUse" as const, command: "./guard.sh", onFailure: "block" as const, timeoutS: 5 };
const exit = (over: Partial<HookExit>): HookExit => ({ exit: 0, stdout: "", stderr: "", timedOut: false, ...over });

describe("hookOutcome", () => {
  test("exit 0 goes on; exit 2 blocks with stderr as the reason", () => {
    expect(hookOutcome(PRE, exit({ stdout: "checked\n" }))).toEqual({ decision: "continue" });
    expect(hookOutcome(PRE, exit({ exit: 2, stderr: "no force pushes\n" }))).toEqual({ decision: "block", reason: "no force pushes" });
    expect(hookOutcome(PRE, exit({ exit: 2 })).reason).toBe("the PreToolUse hook `./guard.sh` exited 2");
  });

  test("fail closed for PreToolUse: another exit, a timeout, a kill, broken or wrong JSON, a start failure all block — unless onFailure allow", () => {
    const failures: [HookExit, string][] = [
      [exit({ exit: 1, stderr: "boom" }), "exited 1: boom"],
      [exit({ exit: undefined, timedOut: true }), "did not finish within 5 s and was killed"],
      [exit({ exit: undefined }), "was killed by a signal"],
      [exit({ stdout: '{"decision": ' }), "printed output that starts as JSON but is not"],
      [exit({ stdout: '{"decision": "perhaps"}' }), "printed JSON that is not a hook's answer"],
      [exit({ stdout: '{"hookSpecificOutput": {"permissionDecision": 1}}' }), "printed JSON that is not a hook's answer"],
      [exit({ exit: undefined, spawnError: "bash is not installed" }), "could not start (bash is not installed)"],
    ];
    for (const [run, failure] of failures) {
      const blocked = hookOutcome(PRE, run);
      expect(blocked.decision).toBe("block");
      expect(blocked.failure).toStartWith(failure);
      expect(blocked.reason).toContain(`the PreToolUse hook \`./guard.sh\` ${failure}`);
      expect(hookOutcome({ ...PRE, onFailure: "allow" }, run)).toEqual({ decision: "continue", failure: blocked.failure! });
      // After the call (nothing to guard any more), a failure only warns.
      expect(hookOutcome({ ...PRE, event: "PostToolUse" }, run).decision).toBe("continue");
    }
  });

  test("JSON decisions: Claude Code's hookSpecificOutput and the older top-level forms", () => {
    const json = (value: object) => exit({ stdout: JSON.stringify(value) });
    expect(hookOutcome(PRE, json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "not today" } }))).toEqual({ decision: "block", reason: "not today" });
    expect(hookOutcome(PRE, json({ hookSpecificOutput: { permissionDecision: "ask" } }))).toEqual({ decision: "ask" });
    expect(hookOutcome(PRE, json({ hookSpecificOutput: { permissionDecision: "allow" } }))).toEqual({ decision: "allow" });
    expect(hookOutcome(PRE, json({ decision: "approve", reason: "fine" }))).toEqual({ decision: "allow", reason: "fine" });
    expect(hookOutcome(PRE, json({ decision: "block" }))).toEqual({ decision: "block", reason: "the PreToolUse hook `./guard.sh` said block" });
    expect(hookOutcome({ ...PRE, event: "Stop" }, json({ decision: "block", reason: "tests first" }))).toEqual({ decision: "block", reason: "tests first" });
    expect(hookOutcome({ ...PRE, event: "PostToolUse" }, json({ hookSpecificOutput: { additionalContext: "formatted" }, suppressOutput: true }))).toEqual({ decision: "continue", context: "formatted" });
  });

  test("plain stdout is context for UserPromptSubmit and SessionStart, ignored elsewhere", () => {
    expect(hookOutcome({ ...PRE, event: "UserPromptSubmit" }, exit({ stdout: "branch: main\n" }))).toEqual({ decision: "continue", context: "branch: main" });
    expect(hookOutcome({ ...PRE, event: "PostToolUse" }, exit({ stdout: "branch: main\n" }))).toEqual({ decision: "continue" });
  });
});

describe("the config's shape", () => {
  const config = { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", command: "a", timeout: 5 }, { type: "command", command: "b", onFailure: "allow" }] }], Stop: [{ hooks: [{ type: "command", command: "c" }] }] };

  test("flattened in the order written, with the default timeout and fail-closed default", () => {
    expect(hookDefinitions(hooksSchema.parse(config), "config.json")).toEqual([
      { event: "PreToolUse", matcher: "bash", command: "a", timeoutS: 5, onFailure: "block", source: "config.json" },
      { event: "PreToolUse", matcher: "bash", command: "b", timeoutS: 60, onFailure: "allow", source: "config.json" },
      { event: "Stop", command: "c", timeoutS: 60, onFailure: "block", source: "config.json" },
    ]);
    expect(notifyDefinitions(["say done"]).map((d) => [d.event, d.command, d.onFailure])).toEqual([
      ["Stop", "say done", "allow"],
      ["Notification", "say done", "allow"],
    ]);
  });

  test("a typo is named with the key meant, as for every config key", () => {
    const message = (value: unknown) => {
      const r = configFileSchema.safeParse(value);
      return r.success ? "" : r.error.issues.map((i) => i.message).join("; ");
    };
    expect(message({ hooks: { PreToolUse: [{ matcher: "bash", hooks: [{ type: "command", comand: "x" }] }] } })).toContain('unknown key "comand"; did you mean "command"?');
    expect(message({ hooks: { PreToolUs: [] } })).toContain('did you mean "PreToolUse"?');
    expect(message({ hooks: { Stop: [{ hooks: [{ type: "prompt", command: "x" }] }] } })).toContain('must be "command"');
    expect(message({ notfy: [] })).toContain('did you mean "notify"?');
  });
});

describe("hook events in the log", () => {
  const at = "2026-01-01T00:00:00.000Z";
  const head: SessionEvent[] = [
    { type: "session", v: 2, id: "s", at, cwd: "/p", model: "gpt-5" },
    { type: "user", text: "go", at },
  ];
  const run = { type: "hook", event: "Stop", command: "./stop.sh", source: "config.json", exit: 0, decision: "block", ms: 3, at } as const;

  test("a Stop hook's feedback joins the history as a user message; a run without one changes nothing", () => {
    expect(reduceSession([...head, { ...run, decision: "continue" }]).messages).toEqual([{ role: "user", text: "go" }]);
    expect(reduceSession([...head, { ...run, feedback: "run the tests" }]).messages).toEqual([
      { role: "user", text: "go" },
      { role: "user", text: "run the tests" },
    ]);
  });

  test("a tool hook's run for a call that is not waiting is an impossible log, named by its line", () => {
    expect(() => reduceSession([...head, { ...run, event: "PreToolUse", callId: "call_9" }])).toThrow(new SessionLogError(3, "a hook run for call_9, which is no call waiting"));
  });
});
