import { ToolError } from "../tool.ts";
import { patchLines, type ChunkResult } from "./apply-chunks.ts";
import type { PatchChunk } from "./parse-patch.ts";
import type { Redaction } from "../../text/redaction-marker.ts";
import { redactedView } from "./redacted-view.ts";
import { restoreMarkers, type Piece } from "./restore-markers.ts";

/**
 * An Update File's chunks applied to the file as the model was shown it, secret values as markers, so
 * context and removed lines copied from what it read match even where they hold a secret. The lines
 * the chunks keep are then the file's own bytes, and each marker in an added line is put back to what
 * it stood for — first in the lines its chunk matched, then anywhere in the file (restore-markers.ts).
 * A marker that cannot be is refused: a ToolError, nothing written.
 */
export function patchContent(content: string, chunks: readonly PatchChunk[], redactions: (text: string) => Redaction[], shown: string): ChunkResult {
  const view = redactedView(content, redactions(content));
  const result = patchLines(view.text, chunks);
  if (!result.ok) return result;
  const pieces: Piece[] = result.lines.map(({ text, end, start, window }) =>
    start !== undefined ? { kept: view.original(start, start + text.length) + end, shown: text + end } : { written: text + end, replaced: window ? view.heldIn(...window) : [] },
  );
  const restored = restoreMarkers(pieces, view.held, shown);
  if ("refused" in restored) throw new ToolError(restored.refused);
  return { ok: true, content: restored.text };
}
