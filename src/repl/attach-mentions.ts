import { resolve, relative } from "node:path";

const ATTACH_CAP = 100_000;

/**
 * `@path` in a prompt attaches that file: its content is appended so the model need not read it.
 * Mentions that are not files are left as they are (they may be e-mail addresses or decorators).
 */
export async function attachMentions(
  prompt: string,
  root: string,
  /** The same gate tool calls pass: a reason when the file may not be read (e.g. a secret). */
  refuse: (absolutePath: string) => string | undefined,
): Promise<{ text: string; attached: string[]; refused: string[] }> {
  const attached: string[] = [];
  const refused: string[] = [];
  let blocks = "";
  for (const match of prompt.matchAll(/(?:^|\s)@([^\s]+)/g)) {
    const path = resolve(root, match[1]!);
    const file = Bun.file(path);
    if (!(await file.exists())) continue;
    const rel = relative(root, path);
    if (attached.includes(rel)) continue;
    const reason = refuse(path);
    if (reason) {
      refused.push(`${rel}: ${reason}`);
      continue;
    }
    let content = await file.text();
    if (content.length > ATTACH_CAP) content = `${content.slice(0, ATTACH_CAP)}\n[truncated ${content.length - ATTACH_CAP} chars]`;
    blocks += `\n\n<file path="${rel}">\n${content}\n</file>`;
    attached.push(rel);
  }
  return { text: prompt + blocks, attached, refused };
}
