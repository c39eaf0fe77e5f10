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
  | { decision: "ask"; reason?: string }
  | { decision: "deny"; reason: string; rule: string };

/** A link of the chain (guard, plugins, rules). `undefined` = no opinion, ask the next link. */
export type Check = (call: GateCall) => Verdict | undefined;
