import type { AcpToolKind } from "./tool-call-kind.ts";
import type { AcpDiff } from "./unified-diff.ts";

/**
 * The parts of the Agent Client Protocol's schema (protocol version 1) that shiro sends, written out
 * here: the official SDK is only the tests' client, never a runtime dependency.
 */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string }
  | { type: "resource"; resource: { uri: string; text?: string; blob?: string; mimeType?: string | null } };

export type ToolCallContent = { type: "content"; content: ContentBlock } | AcpDiff;
export type ToolCallStatus = "pending" | "in_progress" | "completed" | "failed";

export type ToolCallFields = {
  toolCallId: string;
  title?: string;
  kind?: AcpToolKind;
  status?: ToolCallStatus;
  content?: ToolCallContent[];
  locations?: { path: string; line?: number }[];
  rawInput?: unknown;
};

export type PlanEntry = { content: string; priority: "high" | "medium" | "low"; status: "pending" | "in_progress" | "completed" };
export type AvailableCommand = { name: string; description: string; input?: { hint: string } };

export type SessionUpdate =
  | { sessionUpdate: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk"; content: ContentBlock }
  | ({ sessionUpdate: "tool_call"; title: string } & ToolCallFields)
  | ({ sessionUpdate: "tool_call_update" } & ToolCallFields)
  | { sessionUpdate: "plan"; entries: PlanEntry[] }
  | { sessionUpdate: "available_commands_update"; availableCommands: AvailableCommand[] }
  | { sessionUpdate: "current_mode_update"; currentModeId: string };

export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";
