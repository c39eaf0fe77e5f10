import { z } from "zod";
import { clipLine } from "../text/one-line.ts";

/** JSON-RPC 2.0 as MCP uses it: ids are numbers or strings, params an object. */
export type RpcId = string | number;
export type RpcRequest = { jsonrpc: "2.0"; id: RpcId; method: string; params?: Record<string, unknown> };
export type RpcNotification = { jsonrpc: "2.0"; method: string; params?: Record<string, unknown> };
export type RpcErrorBody = { code: number; message: string; data?: unknown };
export type RpcResponse = { jsonrpc: "2.0"; id: RpcId | null; result?: unknown; error?: RpcErrorBody };
export type RpcMessage = RpcRequest | RpcNotification | RpcResponse;

// Permissive about fields the spec may add later: only what this client reads is checked.
const id = z.union([z.string(), z.number()]);
const params = z.record(z.string(), z.unknown()).optional();
const request = z.looseObject({ jsonrpc: z.literal("2.0"), id, method: z.string(), params });
const notification = z.looseObject({ jsonrpc: z.literal("2.0"), method: z.string(), params });
const errorBody = z.looseObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
const result = z.looseObject({ jsonrpc: z.literal("2.0"), id, result: z.unknown() }).refine((m) => "result" in m, "a response needs a result");
const failure = z.looseObject({ jsonrpc: z.literal("2.0"), id: id.nullable(), error: errorBody });
const message = z.union([request, notification, result, failure]);

export const isRequest = (m: RpcMessage): m is RpcRequest => "method" in m && "id" in m && m.id !== undefined;
export const isNotification = (m: RpcMessage): m is RpcNotification => "method" in m && !("id" in m && m.id !== undefined);
export const isResponse = (m: RpcMessage): m is RpcResponse => !("method" in m);

/** One JSON-RPC message from its JSON value, or why it is none (one line, the value clipped). */
export function readMessage(value: unknown): { ok: true; message: RpcMessage } | { ok: false; why: string } {
  const parsed = message.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data as RpcMessage };
  return { ok: false, why: `not a JSON-RPC 2.0 message: ${clipLine(JSON.stringify(value) ?? String(value), 200)}` };
}

/** The messages in a JSON text: one, or a batch (an array, which 2025-03-26 servers may send). */
export function readMessages(text: string): { ok: true; messages: RpcMessage[] } | { ok: false; why: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, why: `not JSON: ${clipLine(text, 200)}` };
  }
  const messages: RpcMessage[] = [];
  for (const one of Array.isArray(value) ? value : [value]) {
    const read = readMessage(one);
    if (!read.ok) return read;
    messages.push(read.message);
  }
  return { ok: true, messages };
}

export const rpcRequest = (id: RpcId, method: string, params?: Record<string, unknown>): RpcRequest => ({ jsonrpc: "2.0", id, method, ...(params && { params }) });
export const rpcNotification = (method: string, params?: Record<string, unknown>): RpcNotification => ({ jsonrpc: "2.0", method, ...(params && { params }) });
export const rpcResult = (id: RpcId, result: unknown): RpcResponse => ({ jsonrpc: "2.0", id, result });
export const rpcFailure = (id: RpcId, error: RpcErrorBody): RpcResponse => ({ jsonrpc: "2.0", id, error });
