import type { CallSubject, ToolKind } from "../tools/tool.ts";

/** One tool call as the permission chain sees it; paths are resolved against the project root. */
export type GateCall = {
  tool: string;
  kind: ToolKind;
  args: unknown;
  subject: CallSubject;
  root: string;
};

export type Verdict =
  | { decision: "allow" }
  /** `person`: only a person answers it (a key press, a rule, an "always"); --yolo does not. */
  | { decision: "ask"; reason?: string; person?: true }
  | { decision: "deny"; reason: string; rule: string };

/** A link of the chain (guard, plugins, rules). `undefined` = no opinion, ask the next link. */
export type Check = (call: GateCall) => Verdict | undefined;
