import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PNG } from "../../support/image-files.ts";
import { initializeEditor, startAcpEditor, type AcpEditor } from "../../support/acp-client.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { echoModel, lastUserText, sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";
import { waitUntil } from "../../support/wait-until.ts";

const EDIT = sequenceModel([{ name: "edit_file", arguments: { path: "notes.txt", old_string: "draft", new_string: "final" } }], "Edited notes.txt.");
const WAIT = sequenceModel([{ name: "bash", arguments: { command: "sleep 30" } }], "The wait is over.");
/** Picks a script by what the person last asked, so one model serves every scenario. */
const acpModel: ScriptedModel = (req) => {
  const asked = lastUserText(req.input);
  if (asked.startsWith("edit the notes")) return EDIT(req);
  if (asked.startsWith("wait")) return WAIT(req);
  return echoModel(req);
};

let server: StrictServer;
let home: string;
let cwd: string;
beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5-acp": acpModel } });
  home = tempDir("acp-home");
  // Real paths: the editor is handed the file's real path, and a temp folder may be a link.
  cwd = realpathSync(tempDir("acp-proj"));
});
afterAll(async () => {
  // An editor a failed test left running is let go here.
  await Promise.all(editors.map((e) => e.quit()));
  await server.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const editors: AcpEditor[] = [];
const editor = (o: Partial<Parameters<typeof startAcpEditor>[0]> = {}) => {
  const e = startAcpEditor({ cwd, home, baseUrl: server.url, args: ["--model", "gpt-5-acp"], ...o });
  editors.push(e);
  return e;
};
const updatesOf = (e: AcpEditor, sessionId: string) => e.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);

/** Every line shiro wrote to stdout is one JSON-RPC 2.0 message: nothing else reaches the editor's stream. */
function expectOnlyProtocol(stdout: string) {
  const lines = stdout.split("\n");
  expect(lines.pop()).toBe("");
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
}

describe("shiro acp, driven by the official ACP client", () => {
  let editedSession = "";

  test("an edit: the tool call, the diff, the question answered, the file written through the editor from its buffer", async () => {
    const notes = join(cwd, "notes.txt");
    writeFileSync(notes, "draft v1 on disk\n");
    // The editor holds unsaved changes: shiro must read (and edit) those, not the disk's.
    const buffers = new Map([[notes, "draft v2 unsaved\n"]]);
    const e = editor({ buffers });
    const init = await initializeEditor(e.agent);
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: true, embeddedContext: true }, mcpCapabilities: { http: true } });
    const created = await e.agent.request("session/new", { cwd, mcpServers: [] });
    editedSession = created.sessionId;
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["default", "plan", "yolo"]);
    const done = await e.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "edit the notes please" }] });
    expect(done.stopReason).toBe("end_turn");

    const updates = updatesOf(e, created.sessionId);
    const call = updates.find((u) => u.sessionUpdate === "tool_call");
    expect(call).toMatchObject({ kind: "edit", status: "pending", title: "edit_file notes.txt", locations: [{ path: notes }] });
    const finished = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(finished).toMatchObject({ toolCallId: (call as { toolCallId: string }).toolCallId, content: [{ type: "diff", path: notes, oldText: "draft v2 unsaved", newText: "final v2 unsaved" }] });
    expect(updates.some((u) => u.sessionUpdate === "agent_thought_chunk")).toBe(true);
    expect(updates.filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => (u as { content: { text: string } }).content.text).join("")).toBe("Edited notes.txt.");

    // The question came on that call, with the diff it would make and the three options.
    expect(e.permissions).toHaveLength(1);
    expect(e.permissions[0]!.toolCall).toMatchObject({ toolCallId: (call as { toolCallId: string }).toolCallId, content: [{ type: "diff", path: notes, newText: "final v2 unsaved" }] });
    expect(e.permissions[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    // The write went through the editor: the buffer's text, edited; on disk only because the editor saved it.
    expect(e.reads.map((r) => r.path)).toContain(notes);
    expect(e.writes).toEqual([{ sessionId: created.sessionId, path: notes, content: "final v2 unsaved\n" }]);
    expect(readFileSync(notes, "utf8")).toBe("final v2 unsaved\n");

    // The saved commands and the ones of the REPL that make sense in an editor.
    await waitUntil(() => updatesOf(e, created.sessionId).some((u) => u.sessionUpdate === "available_commands_update"), "the commands update");
    const commands = updatesOf(e, created.sessionId).find((u) => u.sessionUpdate === "available_commands_update") as { availableCommands: { name: string }[] };
    expect(commands.availableCommands.map((c) => c.name)).toEqual(["compact", "undo"]);
    expect(await e.quit()).toBe(0);
    expectOnlyProtocol(e.stdout());
  });

  test("a rejected question leaves the file as it was; the model is told", async () => {
    const notes = join(cwd, "notes.txt");
    writeFileSync(notes, "draft kept\n");
    const e = editor({ answer: () => "reject_once" });
    await initializeEditor(e.agent);
    const { sessionId } = await e.agent.request("session/new", { cwd, mcpServers: [] });
    const done = await e.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit the notes now" }] });
    expect(done.stopReason).toBe("end_turn");
    expect(e.permissions).toHaveLength(1);
    expect(e.writes).toEqual([]);
    expect(readFileSync(notes, "utf8")).toBe("draft kept\n");
    expect(updatesOf(e, sessionId).some((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed")).toBe(true);
    expect(server.requests.at(-1)!.raw).toContain("the user declined");
    expect(await e.quit()).toBe(0);
    expectOnlyProtocol(e.stdout());
  });

  test("session/set_mode plan: no writing tool is offered and nothing is asked or written; back to default, the writing tools are offered again", async () => {
    const notes = join(cwd, "notes.txt");
    writeFileSync(notes, "draft kept\n");
    const e = editor({ answer: () => "allow_once" });
    await initializeEditor(e.agent);
    const { sessionId } = await e.agent.request("session/new", { cwd, mcpServers: [] });
    await e.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    const before = server.requests.length;
    expect((await e.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit the notes now" }] })).stopReason).toBe("end_turn");
    const planned = server.requests.slice(before);
    for (const r of planned) expect(r.body.tools.map((t: { name: string }) => t.name)).not.toContain("edit_file");
    expect(planned[0]!.body.instructions).toContain("You are in plan mode");
    expect(e.permissions).toEqual([]);
    expect(readFileSync(notes, "utf8")).toBe("draft kept\n");
    expect(updatesOf(e, sessionId)).toContainEqual({ sessionUpdate: "current_mode_update", currentModeId: "plan" });
    await e.agent.request("session/set_mode", { sessionId, modeId: "default" });
    const after = server.requests.length;
    await e.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit the notes now" }] });
    expect(server.requests[after]!.body.tools.map((t: { name: string }) => t.name)).toContain("edit_file");
    expect(server.requests[after]!.body.instructions).not.toContain("plan mode");
    expect(await e.quit()).toBe(0);
  });

  test("a cancel mid-turn stops the running command: stopReason cancelled, and the next prompt works", async () => {
    const e = editor();
    await initializeEditor(e.agent);
    const { sessionId } = await e.agent.request("session/new", { cwd, mcpServers: [] });
    await e.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
    const turn = e.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait for it" }] });
    await waitUntil(() => updatesOf(e, sessionId).some((u) => u.sessionUpdate === "tool_call" && u.kind === "execute"), "the bash call", 15_000);
    await e.agent.notify("session/cancel", { sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    // yolo: the command ran unasked.
    expect(e.permissions).toEqual([]);
    expect(updatesOf(e, sessionId)).toContainEqual({ sessionUpdate: "current_mode_update", currentModeId: "yolo" });
    // An image and an embedded buffer go with the prompt as -i and @path would.
    const again = await e.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "hello again" },
        { type: "image", mimeType: "image/png", data: PNG.toString("base64") },
        { type: "resource", resource: { uri: `file://${cwd}/scratch.md`, text: "unsaved scratch text" } },
      ],
    });
    expect(again.stopReason).toBe("end_turn");
    const sent = JSON.stringify(server.requests.at(-1)!.body.input.at(-1));
    expect(sent).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
    expect(sent).toContain('<file path=\\"scratch.md\\">\\nunsaved scratch text');
    expect(await e.quit()).toBe(0);
    expectOnlyProtocol(e.stdout());
  });

  test("session/load replays the session; the terminal's shiro inspect finds it", async () => {
    expect(editedSession).not.toBe("");
    const e = editor();
    await initializeEditor(e.agent);
    await e.agent.request("session/load", { sessionId: editedSession, cwd, mcpServers: [] });
    const replayed = updatesOf(e, editedSession);
    expect(replayed[0]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "edit the notes please" } });
    expect(replayed.find((u) => u.sessionUpdate === "tool_call")).toMatchObject({ title: "edit_file notes.txt", kind: "edit", status: "completed" });
    expect(replayed.filter((u) => u.sessionUpdate === "agent_message_chunk").at(-1)).toMatchObject({ content: { text: "Edited notes.txt." } });
    expect(await e.quit()).toBe(0);
    expectOnlyProtocol(e.stdout());

    const inspected = await runShiro(["inspect", editedSession], { cwd, home });
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain("edit the notes please");
  });
});
