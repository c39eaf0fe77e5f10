import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRepl } from "../../support/repl-pty.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// gpt-5.3-codex and later label assistant messages `commentary` / `final_answer` and ask clients to
// send the label back. Print mode's stdout is the final answer only; commentary is progress.
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({
    models: {
      "gpt-5.3-codex": ({ input }) =>
        visibleOutputs(input).length === 0
          ? { commentary: "I'll read the notes first.", calls: [{ name: "read_file", arguments: { path: "notes.txt" } }] }
          : { commentary: "Read them; summarising now.", text: `The notes say: ${visibleOutputs(input)[0]!.output.includes("ship it") ? "ship it" : "?"}` },
    },
  });
});
afterAll(() => server.stop());

function project() {
  const cwd = tempDir("phase");
  writeFileSync(join(cwd, "notes.txt"), "ship it\n");
  return cwd;
}

test("commentary goes to stderr, only the final answer to stdout, and each message's phase goes back on the wire", async () => {
  const before = server.requests.length;
  const r = await runShiro(["-p", "-m", "gpt-5.3-codex", "summarise notes.txt"], { cwd: project(), env: { OPENAI_BASE_URL: server.url } });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("The notes say: ship it\n");
  expect(r.stderr).toContain("I'll read the notes first.");
  expect(r.stderr).toContain("Read them; summarising now.");
  const [, second] = server.requests.slice(before);
  const assistant = second!.body.input.filter((item: any) => item.type === "message" && item.role === "assistant");
  expect(assistant).toEqual([{ type: "message", role: "assistant", content: [{ type: "output_text", text: "I'll read the notes first." }], phase: "commentary" }]);
  expect(second!.status).toBe(200);
});

test("--json: text events carry their phase; the result's text is the final answer alone", async () => {
  const r = await runShiro(["-p", "--json", "-m", "gpt-5.3-codex", "summarise notes.txt"], { cwd: project(), env: { OPENAI_BASE_URL: server.url } });
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
  const phases = new Set(lines.filter((l) => l.type === "text").map((l) => l.phase));
  expect(phases).toEqual(new Set(["commentary", "final_answer"]));
  expect(lines.at(-1)).toMatchObject({ type: "result", status: "done", text: "The notes say: ship it" });
});

test("the REPL shows the commentary and the final answer apart, not run together", async () => {
  await using repl = await startRepl({ cwd: project(), baseUrl: server.url, args: ["-m", "gpt-5.3-codex", "--yolo"] });
  const mark = repl.mark();
  await repl.send("summarise notes.txt");
  await repl.idle(mark);
  expect(repl.screen()).toContain("Read them; summarising now.\n\nThe notes say: ship it\n");
});
