import { imageType } from "./image-type.ts";
import { IMAGE_MAX_BYTES } from "../files/image-of.ts";
import type { InputImage } from "../session/messages.ts";
import { formatBytes } from "../text/format-bytes.ts";
import { spelledControls } from "../text/spelled-controls.ts";
import { BASH_MAX_OUTPUT_CHARS } from "../tools/shell/bash.ts";
import { CappedOutput } from "../process/capped-output.ts";
import type { ToolOutput } from "../tools/tool.ts";
import type { McpCallResult } from "./mcp-types.ts";


const str = (value: unknown) => (typeof value === "string" ? value : "");
const base64Bytes = (data: string) => Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);

/**
 * A tool's result as the model reads it: text as it came, its control characters spelled out; images kept to go as `input_image` (each
 * named by a line, so a model that takes no images still learns of them); embedded text resources
 * inlined under their URI; other content named in a line; `structuredContent` as JSON when nothing else
 * is text; `isError` kept. The text is capped as `bash` output is (its head and tail, the cut said).
 */
export function callResultOutput(result: McpCallResult, maxChars = BASH_MAX_OUTPUT_CHARS): ToolOutput {
  const lines: string[] = [];
  const images: InputImage[] = [];
  let imageBytes = 0;
  let text = false;
  for (const item of result.content ?? []) {
    if (item.type === "text") {
      lines.push(str(item.text));
      text = true;
    } else if (item.type === "image") {
      const data = str(item.data);
      const claimed = str(item.mimeType) || "image/png";
      const mediaType = imageType(data);
      const size = formatBytes(base64Bytes(data));
      if (mediaType === undefined) lines.push(`[image ${claimed}, ${size}: left out, it is no PNG, JPEG, GIF or WebP image]`);
      // In all, a result's images weigh at most what one image may.
      else if (imageBytes + base64Bytes(data) > IMAGE_MAX_BYTES) lines.push(`[image ${mediaType}, ${size}: left out, the result's images are over ${formatBytes(IMAGE_MAX_BYTES)}]`);
      else {
        imageBytes += base64Bytes(data);
        images.push({ mediaType, data });
        lines.push(`[image ${images.length}: ${mediaType}, ${size}]`);
      }
    } else if (item.type === "resource") {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      const uri = str(resource.uri);
      if (typeof resource.text === "string") {
        lines.push(`[resource ${uri}]\n${resource.text}`);
        text = true;
      } else lines.push(`[resource ${uri}: ${str(resource.mimeType) || "binary"}, ${formatBytes(base64Bytes(str(resource.blob)))}, not shown]`);
    } else if (item.type === "resource_link") lines.push(`[resource link ${[str(item.name), str(item.uri)].filter(Boolean).join(" ")}]`);
    else if (item.type === "audio") lines.push(`[audio ${str(item.mimeType)}, ${formatBytes(base64Bytes(str(item.data)))}, not shown]`);
    else lines.push(`[${item.type} content, not shown]`);
  }
  if (!text && result.structuredContent !== undefined) lines.unshift(JSON.stringify(result.structuredContent));
  const capped = new CappedOutput(maxChars);
  capped.push(lines.length ? spelledControls(lines.join("\n")) : "(no output)");
  return { output: capped.text(), ...(result.isError ? { isError: true } : {}), ...(images.length ? { images } : {}) };
}
