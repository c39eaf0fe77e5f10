import { statSync } from "node:fs";
import { resolve, relative } from "node:path";
import { diskEnv, resolvePath } from "../guard/resolve-path.ts";
import { isSecret } from "../guard/secret-path.ts";

const ATTACH_CAP = 100_000;
/** Sentence punctuation after a mention ("see @a.txt, then @b.txt.") is not part of the path. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]'"`]+$/;

export type Attachments = { text: string; attached: string[]; refused: string[]; missing: string[] };

/**
 * `@path` in a prompt attaches that file: its content is appended so the model need not read it.
 * The REPL and print mode both come here, so the rules cannot drift: a secret (as written or where
 * its symlinks lead) is never attached but listed in `refused`. Mentions that are not files are left
 * as they are (they may be e-mail addresses or decorators); those that look like paths are listed in
 * `missing`, so a typo does not pass unnoticed.
 */
export async function attachMentions(prompt: string, root: string): Promise<Attachments> {
  const attached: string[] = [];
  const refused: string[] = [];
  const missing: string[] = [];
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
    let content: string;
    try {
      content = await Bun.file(path).text();
    } catch (e) {
      refused.push(`${rel}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      continue;
    }
    if (content.length > ATTACH_CAP) content = `${content.slice(0, ATTACH_CAP)}\n[truncated ${content.length - ATTACH_CAP} chars]`;
    blocks += `\n\n<file path="${rel}">\n${content}\n</file>`;
    attached.push(rel);
  }
  return { text: prompt + blocks, attached, refused, missing };
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
