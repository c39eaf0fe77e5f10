import type { SlashCommand } from "./slash-commands.ts";
import { completeSlash } from "./slash-commands.ts";
import { walkFiles } from "../tools/walk-files.ts";

type Callback = (err: null, result: [string[], string]) => void;
type Completer = (line: string, callback: Callback) => void;

const FILE_LIST_CAP = 5000;

/** Tab completion: `/commands` from the command table, `@paths` from the project's non-ignored files. */
export function createCompleter<Ctx>(root: string, table: readonly SlashCommand<Ctx>[]): Completer {
  let files: Promise<string[]> | undefined;
  return (line, callback) => {
    if (/^\/\S*$/.test(line)) return callback(null, [completeSlash(line, table), line]);
    const mention = /(?:^|\s)(@\S*)$/.exec(line);
    if (!mention) return callback(null, [[], line]);
    const token = mention[1]!;
    files ??= walkFiles(root, root, { limit: FILE_LIST_CAP }).then((r) => r.paths);
    void files.then((all) => {
      const prefix = token.slice(1);
      callback(null, [all.filter((f) => f.startsWith(prefix)).slice(0, 50).map((f) => `@${f}`), token]);
    });
  };
}
