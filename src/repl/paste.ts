import { formatCount } from "../text/format-count.ts";
import { plural } from "../text/plural.ts";

/** Pastes longer than this many lines (or characters) are shown as one placeholder, not drawn in full. */
export const PASTE_SHOWN_LINES = 3;
export const PASTE_SHOWN_CHARS = 1000;

/** The pastes of one draft: placeholder → the text it stands for. */
export type Pastes = ReadonlyMap<string, string>;

// Colour and cursor codes in copied terminal output mean nothing to the model and would move the cursor here.
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-_])/g;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** A paste as it joins the draft: line ends made "\n", escape codes and other control bytes dropped, one final newline trimmed. */
export const cleanPaste = (text: string): string =>
  text.replace(/\r\n?/g, "\n").replace(ESCAPES, "").replace(CONTROLS, "").replace(/\n$/, "");

/**
 * What a paste inserts: itself when short, else a placeholder (`[pasted 40 lines]`) registered in the
 * returned map, numbered when the same one is already there. The whole text is sent on Enter.
 */
export function insertPaste(text: string, pastes: Pastes): { insert: string; pastes: Pastes } {
  const lines = text.split("\n").length;
  if (lines <= PASTE_SHOWN_LINES && text.length <= PASTE_SHOWN_CHARS) return { insert: text, pastes };
  return withPlaceholder(lines > 1 ? `pasted ${plural(lines, "line")}` : `pasted ${formatCount(text.length)} chars`, text, pastes);
}

/** An image given in the prompt (a pasted path, `-i`): the placeholder `[image shot.png]`, standing for its `@` mention. */
export const insertImage = (name: string, mention: string, pastes: Pastes): { insert: string; pastes: Pastes } => withPlaceholder(`image ${name}`, mention, pastes);

/** A prompt with images after it (`shiro -i shot.png "…"`): as it is sent, and as it is drawn (`shown`, placeholders for the images). */
export function withImages(prompt: string, images: readonly { name: string; mention: string }[]): { text: string; shown: string } {
  let pastes: Pastes = new Map();
  let shown = prompt;
  for (const image of images) {
    const added = insertImage(image.name, image.mention, pastes);
    pastes = added.pastes;
    shown += ` ${added.insert}`;
  }
  return { text: expandPastes(shown, pastes), shown };
}

/** `[base]` standing for `text`, numbered when the same one is already there. */
function withPlaceholder(base: string, text: string, pastes: Pastes): { insert: string; pastes: Pastes } {
  let placeholder = `[${base}]`;
  for (let n = 2; pastes.has(placeholder); n++) placeholder = `[${base} #${n}]`;
  return { insert: placeholder, pastes: new Map([...pastes, [placeholder, text]]) };
}

/** The draft as sent: every placeholder still whole in it replaced by its paste (an edited one stays as typed). */
export function expandPastes(text: string, pastes: Pastes): string {
  let out = text;
  for (const [placeholder, paste] of pastes) out = out.split(placeholder).join(paste);
  return out;
}

/** A recalled prompt too long to draw becomes one placeholder again, so ↑ to it stays one screen line. */
export function recallPrompt(entry: string): { text: string; pastes: Pastes } {
  const { insert, pastes } = insertPaste(entry, new Map());
  return { text: insert, pastes };
}
