import { z } from "zod";
import type { Config, Flags } from "../services/settings.ts";
import { VERSION } from "../version.ts";
import { openAcpSession, type AcpSession } from "./acp-session.ts";
import type { FsCapabilities } from "./client-files.ts";
import { RPC, RpcError, type ClientPeer, type Handlers, type Params } from "./json-rpc.ts";

/** The Agent Client Protocol version shiro speaks (the official SDK's `PROTOCOL_VERSION`). */
export const PROTOCOL_VERSION = 1;

const initialize = z.looseObject({ protocolVersion: z.number().int(), clientCapabilities: z.looseObject({ fs: z.looseObject({ readTextFile: z.boolean().optional(), writeTextFile: z.boolean().optional() }).optional() }).optional() });
const absolute = z.string().refine((p) => p.startsWith("/"), "cwd must be an absolute path");
const newSession = z.looseObject({ cwd: absolute, mcpServers: z.array(z.unknown()).default([]) });
const loadSession = newSession.extend({ sessionId: z.string().min(1) });
const prompt = z.looseObject({ sessionId: z.string(), prompt: z.unknown() });
const setMode = z.looseObject({ sessionId: z.string(), modeId: z.string() });
const cancel = z.looseObject({ sessionId: z.string() });

const AGENT_CAPABILITIES = {
  loadSession: true,
  promptCapabilities: { image: true, audio: false, embeddedContext: true },
  mcpCapabilities: { http: true, sse: false },
};

export type ServerOptions = { flags: Flags; config: Config & { apiKey: string }; builtins: readonly string[]; warn: (line: string) => void };

/** Parses a request's params or answers invalid-params naming the method and what was wrong. */
function parse<T>(schema: z.ZodType<T>, params: Params, method: string): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw new RpcError(RPC.invalidParams, `${method}: ${z.prettifyError(parsed.error).split("\n").join(" ")}`);
}

/**
 * The agent's method table: what each ACP request does, over the sessions this process holds. The
 * client's side (its updates, questions, files) is reached through `client`. `close` lets every session go.
 */
export function acpServer(client: ClientPeer, o: ServerOptions): Handlers & { close(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let fs: FsCapabilities | undefined;
  const find = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new RpcError(RPC.notFound, `no session "${sessionId}" is open here; start one with session/new or open it with session/load`);
    return session;
  };
  const open = async (cwd: string, mcpServers: unknown[], load?: string) => {
    const session = await openAcpSession({ ...o, client, cwd, mcpServers, ...(fs ? { fs } : {}), ...(load !== undefined ? { load } : {}) });
    sessions.set(session.id, session);
    // After the answer that names the session: an update before it would name a session the editor does not know yet.
    setTimeout(() => session.announceCommands().catch((err: Error) => o.warn(`could not list the commands: ${err.message}`)), 0);
    return session;
  };
  const methods: Record<string, (params: Params) => Promise<unknown>> = {
    async initialize(params) {
      const asked = parse(initialize, params, "initialize");
      fs = asked.clientCapabilities?.fs;
      return { protocolVersion: PROTOCOL_VERSION, agentCapabilities: AGENT_CAPABILITIES, agentInfo: { name: "shiro", title: "shiro", version: VERSION }, authMethods: [] };
    },
    // No sign-in: the key is the environment's (OPENAI_API_KEY). An editor that authenticates anyway is answered.
    authenticate: async () => ({}),
    async "session/new"(params) {
      const { cwd, mcpServers } = parse(newSession, params, "session/new");
      const session = await open(cwd, mcpServers);
      return { sessionId: session.id, modes: session.modes() };
    },
    async "session/load"(params) {
      const { cwd, mcpServers, sessionId } = parse(loadSession, params, "session/load");
      // Loaded again (an editor reopening it): this process's hold on its log goes first.
      await sessions.get(sessionId)?.close();
      sessions.delete(sessionId);
      const session = await open(cwd, mcpServers, sessionId);
      session.replay();
      return { modes: session.modes() };
    },
    async "session/prompt"(params) {
      const { sessionId, prompt: content } = parse(prompt, params, "session/prompt");
      return { stopReason: await find(sessionId).prompt(content) };
    },
    async "session/set_mode"(params) {
      const { sessionId, modeId } = parse(setMode, params, "session/set_mode");
      find(sessionId).setMode(modeId);
      return {};
    },
  };
  return {
    async request(method, params) {
      const run = methods[method];
      if (!run) throw new RpcError(RPC.methodNotFound, `shiro does not answer "${method}"`);
      return run(params);
    },
    notification(method, params) {
      if (method !== "session/cancel") return;
      const parsed = cancel.safeParse(params);
      if (parsed.success) sessions.get(parsed.data.sessionId)?.cancel();
    },
    async close() {
      await Promise.all([...sessions.values()].map((s) => s.close()));
      sessions.clear();
    },
  };
}
