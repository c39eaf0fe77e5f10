import { statSync } from "node:fs";
import { resolve, relative } from "node:path";
import { diskEnv, resolvePath } from "../guard/resolve-path.ts";
import { isSecret } from "../guard/secret-path.ts";
import { binaryWords, decodeText, escapedWords } from "../text/decode-text.ts";
import { cutWords, fitInput } from "./fit-input.ts";

/** Characters of one attached file; a longer one keeps its head and, with most of this, its tail (a log's error). */
export const ATTACH_CAP = 100_000;
/** Sentence punctuation after a mention ("see @a.txt, then @b.txt.") is not part of the path. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"`]+$/;

/** `notices` say what was changed in a file that was attached: a middle left out, bytes escaped. */
export type Attachments = { text: string; attached: string[]; refused: string[]; missing: string[]; notices: string[] };

/**
 * `@path` in a prompt attaches that file: its content is appended so the model need not read it.
 * The REPL and print mode both come here, so the rules cannot drift: a secret (as written or where
 * its symlinks lead) is never attached but listed in `refused`. Mentions that are not files are left
 * as they are (they may be e-mail addresses or decorators); those that look like paths are listed in
 * `missing`, so a typo does not pass unnoticed. A binary file is refused; text is decoded and cut as
 * stdin is (src/text/decode-text.ts, fit-input.ts), each change named in `notices`. `readRefused`
 * (a saved command's `@path`, which someone else may have written) refuses too what `read_file`
 * would not be let read, saying why: the guard, a plugin, a rule, a person who said no.
 */
export async function attachMentions(prompt: string, root: string, readRefused?: (path: string) => Promise<string | undefined>): Promise<Attachments> {
  const attached: string[] = [];
  const refused: string[] = [];
  const missing: string[] = [];
  const notices: string[] = [];
  let blocks = "";
  for (const match of prompt.matchAll(/(?:^|\s)@([^\s]+)/g)) {
    const mention = match[1]!;
    const path = [mention, mention.replace(TRAILING_PUNCTUATION, "")].map((m) => resolve(root, m)).find(isFile);
    if (!path) {
      if (/[./]/.test(mention)) missing.push(`@${mention}`);
      continue;
    }
    const rel = relative(root, path);
    if (attached.includes(rel)) continue;
    if (isSecret(resolvePath(path, diskEnv(root)))) {
      refused.push(`${rel}: a secret file is never attached`);
      continue;
    }
    const why = await readRefused?.(path);
    if (why !== undefined) {
      refused.push(`${rel}: ${why}`);
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await Bun.file(path).bytes();
    } catch (e) {
      refused.push(`${rel}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      continue;
    }
    const decoded = decodeText(bytes);
    if (decoded.binary) {
      refused.push(binaryWords(rel, decoded.bytes));
      continue;
    }
    if (decoded.escaped) notices.push(escapedWords(rel, decoded.escaped));
    const fitted = fitInput(decoded.text, ATTACH_CAP, rel);
    if (fitted.cut) notices.push(cutWords(`${rel} is too large to attach whole`, fitted.cut));
    blocks += `\n\n<file path="${rel}">\n${fitted.text}\n</file>`;
    attached.push(rel);
  }
  return { text: prompt + blocks, attached, refused, missing, notices };
}

/** A mention that cannot name a file (a NUL in it, a name too long, a file as a folder) is not one. */
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}
