import type { SlashCommand } from "./slash-commands.ts";
import { completeSlash } from "./slash-commands.ts";
import type { Completer } from "./prompt-input.ts";
import { walkFiles } from "../files/walk-files.ts";

const FILE_LIST_CAP = 5000;
const SHOWN = 50;

/** Tab completion: `/commands` from the command table (saved ones too, as read now), `@paths` from the project's non-ignored files. */
export function createCompleter<Ctx>(root: string, table: () => readonly SlashCommand<Ctx>[]): Completer {
  let files: Promise<string[]> | undefined;
  return async (before) => {
    if (/^\/\S*$/.test(before)) return { token: before, candidates: completeSlash(before, table()) };
    const mention = /(?:^|\s)(@\S*)$/.exec(before);
    if (!mention) return { token: "", candidates: [] };
    const token = mention[1]!;
    files ??= walkFiles(root, root, { limit: FILE_LIST_CAP }).then((r) => r.paths);
    const prefix = token.slice(1);
    return { token, candidates: (await files).filter((f) => f.startsWith(prefix)).slice(0, SHOWN).map((f) => `@${f}`) };
  };
}
