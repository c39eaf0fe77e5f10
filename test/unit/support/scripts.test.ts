import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { demoModel, firstUserText, sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { streamFrames, userMessage } from "../../support/sse-client.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { TurnCall } from "../../support/turn.ts";

const readA = { name: "read_file", arguments: { path: "a.txt" } };
const readB = { name: "read_file", arguments: { path: "b.txt" } };
const write = { name: "write_file", arguments: { path: "c.txt", content: "AB" } };
const ask = (input: any[]) => sequenceModel([[readA, readB], write], (i) => `done after ${visibleOutputs(i).length} results`)({ model: "m", instructions: undefined, input, tools: [], body: {} });

/** The input a client would send after running `calls` (ids as the client chose them). */
const ran = (calls: TurnCall[], outputs: string[], prefix = "c") => [
  ...calls.map((c, i) => ({ type: "function_call", call_id: `${prefix}${i}`, name: c.name, arguments: JSON.stringify(c.arguments) })),
  ...outputs.map((output, i) => ({ type: "function_call_output", call_id: `${prefix}${i}`, output })),
];

describe("sequenceModel", () => {
  test("issues a parallel group, then the next step, then the final text", async () => {
    const start = [userMessage("copy a and b into c")];
    expect((await ask(start)).calls).toEqual([readA, readB]);
    const afterReads = [...start, ...ran([readA, readB], ["A", "B"])];
    expect((await ask(afterReads)).calls).toEqual([write]);
    const afterWrite = [...afterReads, ...ran([write], ["ok"], "w")];
    expect(await ask(afterWrite)).toMatchObject({ text: "done after 3 results" });
    expect((await ask(afterWrite)).calls).toBeUndefined();
  });

  test("re-issues a call whose output was removed from the input (lost history repeats work)", async () => {
    const full = [userMessage("go"), ...ran([readA, readB], ["A", "B"]), ...ran([write], ["ok"], "w")];
    const withoutB = full.filter((it: any) => it.call_id !== "c1");
    expect((await ask(withoutB)).calls).toEqual([readB]);
  });

  test("a call with other arguments does not count as the planned one; each output counts once", async () => {
    const other = { name: "read_file", arguments: { path: "z.txt" } };
    expect((await ask([userMessage("go"), ...ran([other, readA], ["Z", "A"])])).calls).toEqual([readB]);
    const twice = sequenceModel([readA, readA], "x");
    const once = [userMessage("go"), ...ran([readA], ["A"])];
    expect((await twice({ model: "m", instructions: undefined, input: once, tools: [], body: {} })).calls).toEqual([readA]);
  });

  test("helpers read what is visible in the input", () => {
    const input = [userMessage("first"), ...ran([readA], [" 1\tline"]), userMessage("second")];
    expect(firstUserText(input)).toBe("first");
    expect(visibleOutputs(input)).toEqual([{ callId: "c0", name: "read_file", arguments: { path: "a.txt" }, output: " 1\tline" }]);
  });
});

describe("demoModel through the strict server", () => {
  let server: StrictServer;
  beforeAll(async () => {
    server = await startStrictServer({ defaultModel: demoModel });
  });
  afterAll(() => server.stop());

  test("globs, reads both notes, writes a summary made from their contents, then reports", async () => {
    const files: Record<string, string> = { "notes/todo.txt": "- buy milk\n- fix bike\n", "notes/done.txt": "- pay rent\n" };
    const tools = { glob: () => Object.keys(files).join("\n"), read_file: (a: any) => files[a.path] ?? "not found", write_file: (a: any) => ((files[a.path] = a.content), "written") };
    const input: any[] = [userMessage("summarise my notes")];
    const called: string[] = [];
    for (let turn = 0; turn < 6; turn++) {
      const frames = await streamFrames(server.url, { model: "gpt-5-mini", input, store: false, include: ["reasoning.encrypted_content"] });
      const output = frames.at(-1)!.data.response.output as any[];
      const calls = output.filter((it) => it.type === "function_call");
      if (calls.length === 0) {
        expect(output.at(-1).content[0].text).toBe("I read notes/todo.txt (2 open) and notes/done.txt (1 done) and wrote notes/summary.md listing both.");
        break;
      }
      input.push({ type: "reasoning", summary: [], encrypted_content: output[0].encrypted_content });
      for (const c of calls) input.push({ type: "function_call", call_id: c.call_id, name: c.name, arguments: c.arguments });
      for (const c of calls) {
        called.push(`${c.name} ${c.arguments}`);
        input.push({ type: "function_call_output", call_id: c.call_id, output: tools[c.name as keyof typeof tools](JSON.parse(c.arguments)) });
      }
    }
    expect(called.map((c) => c.split(" ")[0])).toEqual(["glob", "read_file", "read_file", "write_file"]);
    expect(files["notes/summary.md"]).toBe("# Notes summary\n\n## To do (2)\n- buy milk\n- fix bike\n\n## Done (1)\n- pay rent\n");
  });
});
