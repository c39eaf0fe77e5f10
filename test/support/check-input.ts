/**
 * The Responses API's request rules, as a pure function. The strict local server answers with
 * what this returns; property tests call it directly. Messages and statuses are the real API's
 * (see docs in ../shared/responses-api-facts.md, copied into the error texts below).
 */
import { createHash } from "node:crypto";
import { checkParams } from "./check-params.ts";

export type ApiError = {
  status: number;
  body: { error: { message: string; type: string; param: string | null; code: string | null } };
};

const invalid = (status: number, message: string, param: string | null = null, code: string | null = null): ApiError => ({
  status,
  body: { error: { message, type: "invalid_request_error", param, code } },
});

// Encrypted reasoning is opaque to clients; here it is a sealed JSON so the server can tell which
// item and model made it, and whether it was altered.
const SEAL_SECRET = "shiro-strict-server";
const sign = (payload: string) => createHash("sha256").update(SEAL_SECRET + payload).digest("base64url").slice(0, 22);

export function sealReasoning(id: string, model: string): string {
  const payload = Buffer.from(JSON.stringify({ id, model })).toString("base64url");
  return `gAAA${payload}.${sign(payload)}`;
}

export function openReasoning(sealed: string): { id: string; model: string } | null {
  if (!sealed.startsWith("gAAA")) return null;
  const [payload, sig] = sealed.slice(4).split(".");
  if (!payload || sig !== sign(payload)) return null;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

/** What the server remembers of the ids it issued: an item id → its type and the reasoning item before it. */
export type IssuedItems = Map<string, { type: "message" | "function_call" | "reasoning"; reasoningId?: string }>;

type Item = Record<string, any>;

export function checkInput(body: Record<string, any>, issued: IssuedItems = new Map()): ApiError | null {
  if (typeof body.model !== "string" || !body.model) return invalid(400, "Missing required parameter: 'model'.", "model", "missing_required_parameter");
  const params = checkParams(body);
  if (params) return params;
  const input = body.input;
  if (!Array.isArray(input)) return invalid(400, "Invalid type for 'input': expected an array of input items.", "input", "invalid_type");

  for (let i = 0; i < input.length; i++) {
    const shape = checkShape(input[i], i);
    if (shape) return shape;
  }

  const seenCalls = new Set<string>();
  for (let i = 0; i < input.length; i++) {
    const item: Item = input[i];
    if (item.type === "function_call") seenCalls.add(item.call_id);
    if (item.type === "function_call_output" && !seenCalls.has(item.call_id))
      return invalid(400, `No tool call found for function call output with call_id ${item.call_id}.`, "input");
  }
  const outputs = new Set(input.filter((it: Item) => it.type === "function_call_output").map((it: Item) => it.call_id));
  for (const item of input as Item[]) {
    if (item.type === "function_call" && !outputs.has(item.call_id))
      return invalid(400, `No tool output found for function call ${item.call_id}.`, "input");
  }

  for (let i = 0; i < input.length; i++) {
    const item: Item = input[i];
    if (item.id !== undefined) {
      const known = issued.get(item.id);
      if (!known)
        return invalid(
          404,
          `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
          "input",
        );
      if (known.reasoningId && !input.slice(0, i).some((it: Item) => it.type === "reasoning" && reasoningIdOf(it) === known.reasoningId))
        return invalid(
          400,
          `Item '${item.id}' of type '${known.type}' was provided without its required 'reasoning' item: '${known.reasoningId}'.`,
          "input",
        );
    }
    if (item.type === "reasoning") {
      const opened = item.encrypted_content ? openReasoning(item.encrypted_content) : null;
      if (item.encrypted_content && (!opened || opened.model !== body.model))
        return invalid(
          400,
          "The encrypted content for item could not be verified. Reason: Encrypted content could not be decrypted or parsed.",
          null,
          "invalid_encrypted_content",
        );
      const next: Item | undefined = input[i + 1];
      const follows = next && (next.type === "function_call" || (next.type === "message" && next.role === "assistant"));
      if (!follows)
        return invalid(400, `Item '${reasoningIdOf(item) ?? "rs_unknown"}' of type 'reasoning' was provided without its required following item.`, "input");
    }
  }
  return null;
}

const reasoningIdOf = (item: Item): string | undefined =>
  item.id ?? (item.encrypted_content ? openReasoning(item.encrypted_content)?.id : undefined);

function checkShape(item: Item, i: number): ApiError | null {
  const at = `input[${i}]`;
  if (!item || typeof item !== "object") return invalid(400, `Invalid type for '${at}': expected an object.`, at, "invalid_type");
  switch (item.type) {
    case "message": {
      if (!["user", "assistant", "system", "developer"].includes(item.role))
        return invalid(400, `Invalid value: '${item.role}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`, `${at}.role`, "invalid_value");
      if (item.phase != null && !["commentary", "final_answer"].includes(item.phase))
        return invalid(400, `Invalid value: '${item.phase}'. Supported values are: 'commentary' and 'final_answer'.`, `${at}.phase`, "invalid_value");
      if (typeof item.content === "string") return null;
      if (!Array.isArray(item.content)) return invalid(400, `Invalid type for '${at}.content': expected one of an array or a string.`, `${at}.content`, "invalid_type");
      if (item.role !== "assistant") return contentProblem(item.content, `${at}.content`);
      for (let j = 0; j < item.content.length; j++) {
        const part = item.content[j];
        if (!["output_text", "refusal"].includes(part?.type))
          return invalid(400, `Invalid value: '${part?.type}'. Supported values are: 'output_text' and 'refusal'.`, `${at}.content[${j}]`, "invalid_value");
        if (part.type === "output_text" && typeof part.text !== "string")
          return invalid(400, `Missing required parameter: '${at}.content[${j}].text'.`, `${at}.content[${j}].text`, "missing_required_parameter");
      }
      return null;
    }
    case "function_call":
      if (typeof item.call_id !== "string" || typeof item.name !== "string")
        return invalid(400, `Missing required parameter: '${at}.call_id'.`, `${at}.call_id`, "missing_required_parameter");
      if (typeof item.arguments !== "string")
        return invalid(400, `Invalid type for '${at}.arguments': expected a string, but got an object instead.`, `${at}.arguments`, "invalid_type");
      return null;
    case "function_call_output":
      if (typeof item.call_id !== "string") return invalid(400, `Missing required parameter: '${at}.call_id'.`, `${at}.call_id`, "missing_required_parameter");
      if (typeof item.output !== "string" && !Array.isArray(item.output))
        return invalid(400, `Invalid type for '${at}.output': expected one of a string or an array.`, `${at}.output`, "invalid_type");
      return Array.isArray(item.output) ? contentProblem(item.output, `${at}.output`) : null;
    case "reasoning":
      if (!Array.isArray(item.summary)) return invalid(400, `Missing required parameter: '${at}.summary'.`, `${at}.summary`, "missing_required_parameter");
      return null;
    default:
      return invalid(400, `Invalid value: '${item.type}'. Supported values are: 'message', 'function_call', 'function_call_output', and 'reasoning'.`, `${at}.type`, "invalid_value");
  }
}

// A user message's content and an array output hold the same parts: text, images (a URL or a data URL), files.
const INPUT_CONTENT: Record<string, string[]> = { input_text: ["type", "text"], input_image: ["type", "image_url", "file_id", "detail"], input_file: ["type", "file_id", "file_data", "file_url", "filename"] };
const INVALID_IMAGE =
  "The image data you provided does not represent a valid image. Please check your input and try again with one of the supported image formats: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'].";

function contentProblem(content: any[], at: string) {
  for (let j = 0; j < content.length; j++) {
    const part = content[j];
    const keys = INPUT_CONTENT[part?.type];
    if (!keys) return invalid(400, `Invalid value: '${part?.type}'. Supported values are: 'input_text', 'input_image', and 'input_file'.`, `${at}[${j}].type`, "invalid_value");
    const extra = Object.keys(part).find((k) => !keys.includes(k));
    if (extra) return invalid(400, `Unknown parameter: '${at}[${j}].${extra}'.`, `${at}[${j}].${extra}`, "unknown_parameter");
    if (part.type === "input_text" && typeof part.text !== "string") return invalid(400, `Missing required parameter: '${at}[${j}].text'.`, `${at}[${j}].text`, "missing_required_parameter");
    if (part.type === "input_image") {
      const problem = imageProblem(part, `${at}[${j}]`);
      if (problem) return problem;
    }
  }
  return null;
}

/** An image part as the API judges it: a detail it knows, a URL or data URL, and data that really is one of the four image formats. */
function imageProblem(part: Record<string, any>, at: string) {
  if (part.detail !== undefined && !["low", "high", "auto"].includes(part.detail))
    return invalid(400, `Invalid value: '${part.detail}'. Supported values are: 'low', 'high', and 'auto'.`, `${at}.detail`, "invalid_value");
  if (typeof part.image_url !== "string") return typeof part.file_id === "string" ? null : invalid(400, `Missing required parameter: '${at}.image_url'.`, `${at}.image_url`, "missing_required_parameter");
  const data = /^data:(image\/[a-z+.-]+);base64,(.*)$/s.exec(part.image_url);
  if (!data && !/^https?:\/\//.test(part.image_url))
    return invalid(400, `Invalid '${at}.image_url'. Expected a valid URL, but got a value with an invalid format.`, `${at}.image_url`, "invalid_value");
  if (data && !isImage(Buffer.from(data[2]!, "base64"))) return invalid(400, INVALID_IMAGE, null, "invalid_image_format");
  return null;
}

/** PNG, JPEG, GIF or WebP by their first bytes: what the API decodes (the server's own check, apart from shiro's). */
function isImage(b: Buffer): boolean {
  const head = b.subarray(0, 12).toString("latin1");
  return head.startsWith("\x89PNG\r\n\x1a\n") || head.startsWith("\xff\xd8\xff") || /^GIF8[79]a/.test(head) || (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP");
}
