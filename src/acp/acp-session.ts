import { commandPrompt } from "../agent/command-prompt.ts";
import type { CurrentAgent } from "../agent/current-agent.ts";
import { startMainAgent } from "../agent/start-main-agent.ts";
import { turnOnModel } from "../agent/turn-on-model.ts";
import type { EndStatus } from "../loop/events.ts";
import type { Config, Flags } from "../services/settings.ts";
import { imagesNotTaken } from "../wire/image-input.ts";
import { ACP_BUILTIN_NAMES, availableCommands, builtinOf } from "./acp-commands.ts";
import type { SessionUpdate, StopReason } from "./acp-types.ts";
import { clientFiles, type FsCapabilities } from "./client-files.ts";
import { clientServers } from "./client-servers.ts";
import { RPC, RpcError, type ClientPeer } from "./json-rpc.ts";
import { askThroughClient } from "./permission-bridge.ts";
import { promptInput, withAttachments } from "./prompt-content.ts";
import { replaySession } from "./replay-session.ts";
import { createUpdateMapper } from "./session-updates.ts";
import { isModeId, modeState, type ModeId } from "./session-modes.ts";
import { stopReason } from "./stop-reason.ts";

export type AcpSessionOptions = {
  flags: Flags;
  config: Config & { apiKey: string };
  /** The REPL's command names, which no saved command may take. */
  builtins: readonly string[];
  client: ClientPeer;
  fs?: FsCapabilities;
  cwd: string;
  mcpServers: readonly unknown[];
  /** `session/load`: the shiro session to go on with; a new one when absent. */
  load?: string;
  warn: (line: string) => void;
};

/** One editor session: a shiro session with its agent, made as the REPL's is, talking through the editor. */
export type AcpSession = {
  readonly id: string;
  modes(): ReturnType<typeof modeState>;
  /** Runs one turn, its updates streamed; resolves with why it stopped. */
  prompt(content: unknown): Promise<StopReason>;
  /** Stops the turn as Ctrl-C does (a running command is killed); its prompt answers `cancelled`. */
  cancel(): void;
  setMode(modeId: string): void;
  /** The history as updates (`session/load` sends them before it answers). */
  replay(): void;
  /** The commands a prompt may begin with, sent once the session is the editor's. */
  announceCommands(): Promise<void>;
  close(): Promise<void>;
};

export async function openAcpSession(o: AcpSessionOptions): Promise<AcpSession> {
  let id = "";
  let mode: ModeId = o.flags.yolo ? "yolo" : "default";
  const servers = clientServers(o.mcpServers);
  servers.skipped.forEach(o.warn);
  const mcp = { ...o.config.mcp, servers: [...o.config.mcp.servers, ...servers.entries] };
  const files = clientFiles(o.client, () => id, o.fs);
  const main: CurrentAgent = await startMainAgent({
    flags: { ...o.flags, continue: false, resume: o.load },
    config: { ...o.config, mcp },
    cwd: o.cwd,
    warn: o.warn,
    builtinCommands: [...o.builtins, ...ACP_BUILTIN_NAMES],
    ask: askThroughClient(o.client, () => id, o.cwd),
    yolo: () => mode === "yolo",
    ...(files ? { files } : {}),
  });
  // The editor's name for the session: a load of one open in another shiro (or damaged) goes on in a copy, which the editor still calls by the id it asked for.
  id = o.load ?? main.agent.session.id;
  // A session left planning (session/load) or started with --plan is in plan mode.
  if (main.agent.mode === "plan") mode = "plan";
  const update = (u: SessionUpdate) => o.client.notify("session/update", { sessionId: id, update: u });
  const say = (text: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  let turn: { controller: AbortController; done: Promise<unknown> } | undefined;

  const runTurn = async (content: unknown, signal: AbortSignal): Promise<StopReason> => {
    const { agent, services } = main;
    const input = await promptInput(content, o.cwd, (path) => services.host.readDenied?.("read_file", path, o.cwd) ?? false);
    const builtin = builtinOf(input.text);
    if (builtin) {
      say(await builtin.run(agent, builtin.args, signal));
      return signal.aborted ? "cancelled" : "end_turn";
    }
    const command = await commandPrompt(input.text, services.commands, agent.commandCalls, signal, o.warn, o.builtins);
    if (command && !command.ok) throw new RpcError(RPC.invalidParams, command.message);
    const ready = command ? { text: command.prompt + input.embedded, images: [...input.images, ...(command.turn.images ?? [])], notices: input.notices } : await withAttachments(input, o.cwd);
    const notTaken = imagesNotTaken(command?.turn.model ?? agent.session.model, ready.images.length);
    [...ready.notices, ...(notTaken ? [notTaken] : [])].forEach(o.warn);
    const map = createUpdateMapper(o.cwd, () => agent.session.notebook.todos);
    let end: EndStatus = "error";
    let failure = "the turn ended without saying why";
    const spec = { ...command?.turn, ...(ready.images.length ? { images: ready.images } : {}) };
    for await (const event of turnOnModel(agent, ready.text, signal, spec)) {
      map(event).forEach(update);
      if (event.type === "notice") o.warn(event.text);
      else if (event.type === "error") failure = event.error.message;
      else if (event.type === "end") end = event.status;
    }
    const reason = stopReason(end, agent.session.messages);
    if (reason === undefined) throw new RpcError(RPC.internal, failure);
    return reason;
  };

  return {
    id,
    modes: () => modeState(mode),
    async prompt(content) {
      if (turn) throw new RpcError(RPC.invalidRequest, "a prompt is already running in this session; cancel it first (session/cancel)");
      const controller = new AbortController();
      const done = runTurn(content, controller.signal);
      turn = { controller, done };
      try {
        return await done;
      } finally {
        turn = undefined;
      }
    },
    cancel: () => turn?.controller.abort("the person cancelled the turn in the editor"),
    setMode(modeId) {
      if (!isModeId(modeId)) throw new RpcError(RPC.invalidParams, `no mode "${modeId}": the modes are ${modeState(mode).availableModes.map((m) => m.id).join(", ")}`);
      mode = modeId;
      main.agent.setMode(mode === "plan" ? "plan" : "default");
      update({ sessionUpdate: "current_mode_update", currentModeId: mode });
    },
    replay: () => replaySession(main.agent.session.messages, main.agent.session.notebook.todos, o.cwd).forEach(update),
    announceCommands: async () => update({ sessionUpdate: "available_commands_update", availableCommands: availableCommands(await main.services.commands.list()) }),
    async close() {
      // The turn ends (its log saved) before the log is let go.
      turn?.controller.abort("the editor closed the session");
      await turn?.done.catch(() => {});
      await main.close();
    },
  };
}
