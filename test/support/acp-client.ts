import * as acp from "@agentclientprotocol/sdk";
import { readFileSync, writeFileSync } from "node:fs";
import { BINARY } from "./binary.ts";
import { TEST_API_KEY } from "./test-key.ts";

/** How the test's editor answers a permission question: an option's id, or the question cancelled. */
export type PermissionAnswer = (request: acp.RequestPermissionRequest) => string | "cancelled" | Promise<string | "cancelled">;

export type AcpEditor = {
  /** The official client's context for calling the agent (initialize, session/new, session/prompt…). */
  agent: acp.ClientContext;
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  reads: acp.ReadTextFileRequest[];
  writes: acp.WriteTextFileRequest[];
  /** Every byte shiro wrote to stdout, as it came. */
  stdout(): string;
  stderr(): string;
  /** Closes shiro's stdin (the editor quits) and resolves with its exit code; again, the same. */
  quit(): Promise<number>;
};

export type AcpEditorOptions = {
  cwd: string;
  home: string;
  baseUrl: string;
  args?: string[];
  answer?: PermissionAnswer;
  /** The editor's unsaved buffers, by absolute path: a read gets these before the disk. */
  buffers?: Map<string, string>;
};

/**
 * An editor as the official ACP client (`@agentclientprotocol/sdk`) is one, driving `dist/shiro acp`
 * over its stdio: it records every update, question, read and write; it reads its buffers (or the
 * disk) and writes the disk, as an editor saving the file would.
 */
export function startAcpEditor(o: AcpEditorOptions): AcpEditor {
  const proc = Bun.spawn([BINARY, "acp", ...(o.args ?? [])], {
    cwd: o.cwd,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH, HOME: o.home, SHIRO_HOME: o.home, OPENAI_API_KEY: TEST_API_KEY, OPENAI_BASE_URL: o.baseUrl, NO_COLOR: "1" } as Record<string, string>,
  });
  const out = { stdout: "", stderr: "" };
  const [raw, forClient] = proc.stdout.tee();
  const collect = async (stream: ReadableStream<Uint8Array>, key: "stdout" | "stderr") => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) out[key] += decoder.decode(chunk, { stream: true });
  };
  const collected = Promise.all([collect(raw, "stdout"), collect(proc.stderr, "stderr")]);
  const toShiro = new WritableStream<Uint8Array>({
    write: (chunk) => {
      proc.stdin.write(chunk);
      proc.stdin.flush();
    },
    close: () => void proc.stdin.end(),
  });
  const editor = { updates: [] as acp.SessionNotification[], permissions: [] as acp.RequestPermissionRequest[], reads: [] as acp.ReadTextFileRequest[], writes: [] as acp.WriteTextFileRequest[] };
  const app = acp
    .client({ name: "shiro-test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => void editor.updates.push(params))
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      editor.permissions.push(params);
      const picked = await (o.answer ?? (() => "allow_once"))(params);
      return { outcome: picked === "cancelled" ? { outcome: "cancelled" } : { outcome: "selected", optionId: picked } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
      editor.reads.push(params);
      return { content: o.buffers?.get(params.path) ?? readFileSync(params.path, "utf8") };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      editor.writes.push(params);
      writeFileSync(params.path, params.content);
      o.buffers?.delete(params.path);
      return {};
    });
  const connection = app.connect(acp.ndJsonStream(toShiro, forClient));
  let quitting: Promise<number> | undefined;
  const quit = async () => {
    connection.close();
    await proc.stdin.end();
    const code = await proc.exited;
    await collected;
    return code;
  };
  return {
    agent: connection.agent,
    ...editor,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    quit: () => (quitting ??= quit()),
  };
}

/** The editor's `initialize`: protocol version 1, files offered both ways, no terminal. */
export const initializeEditor = (agent: acp.ClientContext) =>
  agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
    clientInfo: { name: "shiro-test-editor", version: "1" },
  });
