import { z } from "zod";
import type { ClientFiles } from "../tools/tool.ts";
import type { ClientPeer } from "./json-rpc.ts";

/** What the editor said it can do with files in `initialize` (`clientCapabilities.fs`). */
export type FsCapabilities = { readTextFile?: boolean; writeTextFile?: boolean };

const readAnswer = z.looseObject({ content: z.string() });

/**
 * The file tools' port to the editor (`fs/read_text_file`, `fs/write_text_file`) for one session: only
 * the halves it offers; undefined when it offers neither, and the tools use the disk.
 */
export function clientFiles(client: ClientPeer, sessionId: () => string, fs: FsCapabilities | undefined): ClientFiles | undefined {
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  return {
    ...(fs.readTextFile ? { read: async (path: string) => readAnswer.parse(await client.request("fs/read_text_file", { sessionId: sessionId(), path })).content } : {}),
    ...(fs.writeTextFile ? { write: async (path: string, text: string) => void (await client.request("fs/write_text_file", { sessionId: sessionId(), path, content: text })) } : {}),
  };
}
