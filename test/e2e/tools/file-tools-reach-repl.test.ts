/**
 * Issue 18 in the REPL: under --yolo a read of a home file is still asked about (--yolo does not
 * answer for the person), and the person's key press decides: `y` lets the file reach the model,
 * `n` keeps it out. Through a real pty.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { reachLayout } from "../../support/reach-layout.ts";
import { startRepl } from "../../support/repl-pty.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

const l = reachLayout("reach-repl");
const markerOf = (rel: string) => [...l.markers].find(([, where]) => where === rel)![0];
const STEPS = [
  { name: "read_file", arguments: { path: "~/notes/todo.md" } },
  { name: "read_file", arguments: { path: "~/.bashrc" } },
  { name: "read_file", arguments: { path: "src/app.ts" } },
];
let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { stepper: sequenceModel(STEPS, "all done") } });
});
afterAll(() => server.stop());

test("--yolo asks before reading a home file; y gives it to the model, n does not; a project file is read unasked", async () => {
  await using repl = await startRepl({ cwd: l.root, home: l.home, baseUrl: server.url, args: ["-m", "stepper", "--yolo"], env: { SHIRO_HOME: l.shiroHome } });
  const mark = repl.mark();
  await repl.send("go");
  await repl.waitFor(`[a]lways for ${join(l.home, "notes/todo.md")}: `, { since: mark });
  // One key answers (no Enter): an Enter after it would land on the next question, asked at once.
  repl.write("y");
  await repl.waitFor(`[a]lways for ${join(l.home, ".bashrc")}: `, { since: mark });
  await repl.send("n");
  await repl.idle(mark);
  expect(repl.screen().match(/allow\? /g)).toHaveLength(2); // none for the project's file
  const bodies = server.requests.map((r) => r.raw).join("\n");
  expect(bodies).toContain(markerOf("home/notes/todo.md"));
  expect(bodies).not.toContain(markerOf("home/.bashrc"));
  expect(bodies).toContain(l.projectText.trim());
});
