import { ToolError } from "../tool.ts";
import { editedBytes, type EditableText } from "./editable-text.ts";
import type { Redaction } from "../../text/redaction-marker.ts";
import { redactedView } from "./redacted-view.ts";
import { replacedPieces } from "./replaced-pieces.ts";
import { holdsMarker, restoreMarkers } from "./restore-markers.ts";

/**
 * What write_file puts in a file for `content`. Replacing a text file, it keeps what the model was never
 * shown and so cannot write back: the byte-order mark, CRLF line breaks (when every break in the file is
 * one and the content has no `\r`), and the secret values it saw as markers (restore-markers.ts). A
 * marker that cannot be put back is refused: a ToolError, nothing written.
 */
export function writeContent(content: string, before: EditableText | undefined, redactions: (text: string) => Redaction[], shown: string): { text: string; bytes: Uint8Array } {
  const crlf = before !== undefined && before.text.includes("\n") && !/(^|[^\r])\n/.test(before.text) && !content.includes("\r");
  const text = restoreWrite(crlf ? content.replaceAll("\n", "\r\n") : content, before?.text, redactions, shown);
  const bom = before?.bom === true && !text.startsWith("\uFEFF");
  return { text: bom ? `\uFEFF${text}` : text, bytes: editedBytes(text, bom) };
}

/**
 * `content` with its markers put back, for a file that held `old` (undefined: it held no text): the
 * content stands in place of the whole file as shown (replaced-pieces.ts).
 */
export function restoreWrite(content: string, old: string | undefined, redactions: (text: string) => Redaction[], shown: string): string {
  const view = redactedView(old ?? "", old === undefined ? [] : redactions(old));
  if (!holdsMarker(content, view.held)) return content;
  const restored = restoreMarkers(replacedPieces(view, 0, view.text.length, content, shown), view.held, shown);
  if ("refused" in restored) throw new ToolError(restored.refused);
  return restored.text;
}
