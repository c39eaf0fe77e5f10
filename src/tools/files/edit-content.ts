import { ToolError } from "../tool.ts";
import { planEdit, type EditRequest } from "./plan-edit.ts";
import type { Redaction } from "../../text/redaction-marker.ts";
import { redactedView } from "./redacted-view.ts";
import { replacedPieces } from "./replaced-pieces.ts";
import { restoreMarkers, type Piece } from "./restore-markers.ts";

/**
 * edit_file's edit made on the file as the model was shown it, secret values as markers, so an
 * `old_string` copied from what it read matches even next to a secret; the replacement then lands on
 * the file's own bytes, every byte outside the replaced text kept, and each marker in `new_string` put
 * back to what it stood for — first in the lines of the replaced text it stands in place of
 * (replaced-pieces.ts), then anywhere in the file (restore-markers.ts).
 * A marker that cannot be, or an `old_string` cutting one in two, is refused: a ToolError, nothing written.
 */
export function editContent(content: string, edit: EditRequest, redactions: (text: string) => Redaction[], shown: string): { updated: string; count: number } {
  const view = redactedView(content, redactions(content));
  const { replacements, count } = planEdit(view.text, edit, shown);
  const pieces: Piece[] = [];
  let kept = 0;
  for (const { from, to, text } of replacements) {
    for (const end of [from, to]) {
      const cut = view.inside(end);
      if (cut) throw new ToolError(`old_string ${end === from ? "begins" : "ends"} inside \`${cut.marker}\`, a placeholder for a secret value in ${shown}; include the whole placeholder or none of it.`);
    }
    pieces.push({ kept: view.original(kept, from), shown: view.text.slice(kept, from) }, ...replacedPieces(view, from, to, text, shown));
    kept = to;
  }
  pieces.push({ kept: view.original(kept, view.text.length), shown: view.text.slice(kept) });
  const restored = restoreMarkers(pieces, view.held, shown);
  if ("refused" in restored) throw new ToolError(restored.refused);
  return { updated: restored.text, count };
}
