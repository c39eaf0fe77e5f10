import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { attachMentions, mentionOf } from "../context/attach-mentions.ts";
import type { InputImage } from "../session/messages.ts";
import { RPC, RpcError } from "./json-rpc.ts";

const block = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({ type: z.literal("image"), data: z.string().min(1), mimeType: z.string().min(1) }),
  z.looseObject({ type: z.literal("resource_link"), uri: z.string().min(1) }),
  z.looseObject({ type: z.literal("resource"), resource: z.looseObject({ uri: z.string().min(1), text: z.string().optional() }) }),
]);
const blocks = z.array(block).min(1, "a prompt needs at least one content block");

/** A prompt's parts: what was typed (a saved command's name and words, maybe), the editor's embedded files, the images. */
export type PromptInput = { text: string; embedded: string; images: InputImage[]; notices: string[] };

const pathOf = (uri: string): string | undefined => {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A `session/prompt`'s content blocks as the REPL's prompt would be: text as typed; an image as one
 * given with `-i`; a link to a file as an `@path` mention, for withAttachments to attach by the same
 * rules; an embedded text resource (an editor's buffer) as an attached file, a secret refused in `notices`.
 * `readDenied`: whether read_file would be let read that file (no secret reaches the model this way either).
 */
export async function promptInput(raw: unknown, root: string, readDenied: (path: string) => boolean): Promise<PromptInput> {
  const parsed = blocks.safeParse(raw);
  if (!parsed.success) throw new RpcError(RPC.invalidParams, `session/prompt's prompt is not ACP content: ${z.prettifyError(parsed.error).split("\n").join(" ")}`);
  let text = "";
  let embedded = "";
  const images: InputImage[] = [];
  const notices: string[] = [];
  for (const b of parsed.data) {
    if (b.type === "text") text += b.text;
    else if (b.type === "image") images.push({ mediaType: b.mimeType, data: b.data });
    else if (b.type === "resource_link") text += ` ${mentionOf(relative(root, pathOf(b.uri) ?? b.uri))} `;
    else {
      const path = pathOf(b.resource.uri);
      const shown = path ? relative(root, path) : b.resource.uri;
      if (b.resource.text === undefined) notices.push(`not attached: ${shown} (only text resources are taken)`);
      else if (path && readDenied(path)) notices.push(`not attached: ${shown} (a secret file, or a deny rule covers it)`);
      else embedded += `\n\n<file path="${shown}">\n${b.resource.text}\n</file>`;
    }
  }
  return { text, embedded, images, notices };
}

/** The prompt as sent: the files its `@path` mentions (and links) name attached by the REPL's rules, then the embedded ones. */
export async function withAttachments(input: PromptInput, root: string): Promise<{ text: string; images: InputImage[]; notices: string[] }> {
  const attached = await attachMentions(input.text, root);
  const notices = [...input.notices, ...attached.refused.map((r) => `not attached: ${r}`), ...attached.notices];
  return { text: attached.text + input.embedded, images: [...input.images, ...attached.images], notices };
}
