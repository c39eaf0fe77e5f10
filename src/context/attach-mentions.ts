import { relative, resolve } from "node:path";
import { imageOf } from "../files/image-of.ts";
import type { InputImage } from "../session/messages.ts";
import { binaryWords, decodeText, escapedWords } from "../text/decode-text.ts";
import { cutWords, fitInput } from "./fit-input.ts";
import { isFile, readPersonFile } from "./person-file.ts";

/** Characters of one attached file; a longer one keeps its head and, with most of this, its tail (a log's error). */
export const ATTACH_CAP = 100_000;
/** Sentence punctuation after a mention ("see @a.txt, then @b.txt.") is not part of the path. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"`]+$/;
/** `@path`, or `@"a path with spaces"` (what a pasted path becomes). */
const MENTION = /(?:^|\s)@(?:"([^"\n]+)"|([^\s]+))/g;

/** `images`: the images mentioned, in order, each named in `attached`; `notices` say what was changed in a file that was attached: a middle left out, bytes escaped. */
export type Attachments = { text: string; images: InputImage[]; attached: string[]; refused: string[]; missing: string[]; notices: string[] };

/** A path as a mention that ends where it ends, whatever it holds or comes next: quoted. */
export const mentionOf = (path: string): string => `@"${path}"`;

/**
 * `@path` in a prompt attaches that file: a text file's content is appended so the model need not read
 * it; an image (a PNG, JPEG, GIF or WebP by its bytes) goes with the prompt as an image.
 * The REPL and print mode both come here, so the rules cannot drift: a secret (as written or where
 * its symlinks lead) is never attached but listed in `refused`. Mentions that are not files are left
 * as they are (they may be e-mail addresses or decorators); those that look like paths are listed in
 * `missing`, so a typo does not pass unnoticed. Another binary file is refused; text is decoded and cut as
 * stdin is (src/text/decode-text.ts, fit-input.ts), each change named in `notices`. `readRefused`
 * (a saved command's `@path`, which someone else may have written) refuses too what `read_file`
 * would not be let read, saying why: the guard, a plugin, a rule, a person who said no.
 */
export async function attachMentions(prompt: string, root: string, readRefused?: (path: string) => Promise<string | undefined>): Promise<Attachments> {
  const found: Attachments = { text: prompt, images: [], attached: [], refused: [], missing: [], notices: [] };
  let blocks = "";
  for (const match of prompt.matchAll(MENTION)) {
    const mention = match[1] ?? match[2]!;
    const path = [mention, mention.replace(TRAILING_PUNCTUATION, "")].map((m) => resolve(root, m)).find(isFile);
    if (!path) {
      if (/[./]/.test(mention)) found.missing.push(`@${mention}`);
      continue;
    }
    if (found.attached.includes(relative(root, path))) continue;
    const file = await readPersonFile(path, root, readRefused);
    if ("refused" in file) {
      found.refused.push(`${file.shown}: ${file.refused}`);
      continue;
    }
    const block = attachedBlock(file.shown, file.bytes, found);
    if (block === undefined) continue;
    blocks += block;
    found.attached.push(file.shown);
  }
  found.text = prompt + blocks;
  return found;
}

/** What one file adds to the prompt's text ("" for an image, which joins `found.images`), or undefined when it is refused. */
function attachedBlock(rel: string, bytes: Uint8Array, found: Attachments): string | undefined {
  const image = imageOf(bytes, rel);
  if (image && "refused" in image) {
    found.refused.push(image.refused);
    return undefined;
  }
  if (image) {
    found.images.push(image.image);
    return "";
  }
  const decoded = decodeText(bytes);
  if (decoded.binary) {
    found.refused.push(binaryWords(rel, decoded.bytes));
    return undefined;
  }
  if (decoded.escaped) found.notices.push(escapedWords(rel, decoded.escaped));
  const fitted = fitInput(decoded.text, ATTACH_CAP, rel);
  if (fitted.cut) found.notices.push(cutWords(`${rel} is too large to attach whole`, fitted.cut));
  return `\n\n<file path="${rel}">\n${fitted.text}\n</file>`;
}
