import { expect, test } from "bun:test";
import { factEvents } from "../../../src/session/fact-event.ts";
import { createSessionReducer, reduceSession, SessionLogError } from "../../../src/session/reduce-session.ts";
import type { SessionEvent } from "../../../src/session/session-event.ts";
import { parseLog } from "../../../src/session/session-log.ts";
import { imageHash } from "../../../src/session/stored-images.ts";
import { userEvents } from "../../../src/session/user-events.ts";
import { GIF, PNG } from "../../support/image-files.ts";

const at = "2026-12-01T10:00:00.000Z";
const head: SessionEvent = { type: "session", v: 2, id: "s1", at, cwd: "/p", model: "gpt-5" };
const png = { mediaType: "image/png", data: PNG.toString("base64") };
const gif = { mediaType: "image/gif", data: GIF.toString("base64") };
const answerCalling = (callId: string): SessionEvent[] => [
  { type: "prompt", key: "k", instructions: "", tools: [] },
  { type: "call", step: 1, model: "gpt-5", params: {}, messages: 1, prompt: "k", at },
  { type: "response", step: 1, status: "completed", message: { role: "assistant", model: "gpt-5", parts: [{ type: "tool-call", callId, name: "read_file", arguments: "{}" }] }, at },
];

test("an image is hashed as sha256sum hashes its file", () => {
  expect(imageHash(png)).toBe(new Bun.CryptoHasher("sha256").update(PNG).digest("hex"));
});

test("a prompt's images are written once: a prompt giving the same image again, or a result, names it by hash and adds no line", () => {
  const reducer = createSessionReducer();
  reducer.apply(head);
  const first = userEvents("look", [png, png, gif], reducer.state!, at);
  expect(first.map((e) => e.type)).toEqual(["image", "image", "user"]);
  expect(first.at(-1)).toEqual({ type: "user", text: "look", images: [imageHash(png), imageHash(png), imageHash(gif)], at });
  first.forEach(reducer.apply);
  const again = userEvents("and again", [gif], reducer.state!, at);
  expect(again).toEqual([{ type: "user", text: "and again", images: [imageHash(gif)], at }]);
  again.forEach(reducer.apply);
  [...answerCalling("c1"), { type: "tool", callId: "c1" } as SessionEvent].forEach(reducer.apply);
  const result = factEvents({ type: "result", callId: "c1", output: "[image]", isError: false, denied: false, images: [png] }, reducer.state!, at);
  expect(result).toEqual([{ type: "result", callId: "c1", output: "[image]", images: [imageHash(png)] }]);
  result.forEach(reducer.apply);
  const s = reducer.state!;
  expect(s.messages[0]).toEqual({ role: "user", text: "look", images: [png, png, gif] });
  expect(s.messages.at(-1)).toEqual({ role: "tool", results: [{ callId: "c1", output: "[image]", images: [png] }] });
  // One object in memory however many messages name it.
  expect(s.messages[0]!.role === "user" && s.messages[0]!.images![0]).toBe(s.images[imageHash(png)]!);
});

test("a prompt naming an image the log does not hold is an impossible line: it throws, naming it, and changes nothing", () => {
  const reducer = createSessionReducer();
  reducer.apply(head);
  expect(() => reducer.apply({ type: "user", text: "look", images: ["ab12"], at })).toThrow(new SessionLogError(2, "image ab12 is named, but no earlier line holds it"));
  expect([reducer.state!.turnCount, reducer.state!.messages.length, reducer.state!.events]).toEqual([0, 0, 1]);
});

test("a log written before image lines, its images in the result itself, still loads as it did", () => {
  const text = [head, { type: "user", text: "go", at }, ...answerCalling("c1"), { type: "tool", callId: "c1" }, { type: "result", callId: "c1", output: "see", images: [png] }].map((e) => JSON.stringify(e)).join("\n") + "\n";
  const parsed = parseLog(text);
  expect(parsed.damaged).toBeUndefined();
  expect(reduceSession(parsed.events).messages.at(-1)).toEqual({ role: "tool", results: [{ callId: "c1", output: "see", images: [png] }] });
});
