import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { keys } from "../../support/pty.ts";
import { startRepl, type Repl } from "../../support/repl-pty.ts";
import { lastUserText } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";
import { snapshot, undoProject, type UndoProject } from "../../support/undo-project.ts";

// Words no answer, file or command contains, so a request holds them only if it holds that prompt.
const PLAN = "zebra: write the parser plan";
const TIDY = "walrus: tidy the repo up";
const PLAN_FILE = "docs/plan.md";
// A pause first, so the test can type while the command runs; then a delete, a rewrite and a rename.
const TIDY_COMMAND = "sleep 1 && rm README.md logo.png && printf 'rewritten\\n' > src/main.ts && mv notes.txt notes-moved.txt";

/** Turn one writes a file, turn two runs a command that deletes, changes and moves files; anything else is only answered. */
const undoModel: ScriptedModel = ({ input }) => {
  if (input.at(-1)?.type === "function_call_output") return { text: "Done." };
  const prompt = lastUserText(input);
  if (prompt.startsWith("zebra")) return { calls: [{ name: "write_file", arguments: { path: PLAN_FILE, content: "# plan\n1. tokens\n2. tree\n" } }] };
  if (prompt.startsWith("walrus")) return { calls: [{ name: "bash", arguments: { command: TIDY_COMMAND } }] };
  return { text: "Heard you." };
};

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer({ models: { "undo-model": undoModel } });
});
afterAll(() => server.stop());

/** The git project, with SHIRO_HOME and HOME (its dotfiles) inside the fixture, all removed after. */
async function withProject(run: (fx: UndoProject, repl: Repl) => Promise<void>): Promise<void> {
  const fx = undoProject();
  try {
    const shiroHome = join(fx.base, "shiro-home");
    mkdirSync(shiroHome);
    await using repl = await startRepl({ cwd: fx.project, baseUrl: server.url, home: shiroHome, args: ["--yolo", "-m", "undo-model"], env: { HOME: fx.home, NO_COLOR: "1" } });
    await run(fx, repl);
    expect(await repl.quit()).toBe(0);
  } finally {
    rmSync(fx.base, { recursive: true, force: true });
  }
}

/** Sends a prompt and waits for its answer and the prompt line back. */
async function turn(repl: Repl, prompt: string, answer: string): Promise<void> {
  const since = repl.mark();
  await repl.send(prompt);
  await repl.waitFor(answer, { since, timeoutMs: 10_000 });
  await repl.idle(since);
}

/** The prompt line holds `text` (an undone turn's prompt, back for editing). */
const promptLineHolds = (repl: Repl, text: string) => repl.waitFor(new RegExp(`› ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`), { timeoutMs: 5_000 });

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !condition(); await Bun.sleep(25)) if (Date.now() > end) throw new Error("timed out");
}

const lastRequest = () => server.requests.filter((r) => r.path === "/v1/responses").at(-1)!.raw;

describe("undo in the REPL (dist/shiro in a pty ↔ strict server, a real git project)", () => {
  test("Esc Esc at the empty prompt picks a turn: rewinding to turn 1 leaves the tree as it was before it, byte for byte", async () => {
    await withProject(async (fx, repl) => {
      const before = snapshot(fx.project);
      await turn(repl, PLAN, "Done.");
      expect(readFileSync(join(fx.project, PLAN_FILE), "utf8")).toContain("# plan");
      await turn(repl, TIDY, "Done.");
      expect(existsSync(join(fx.project, "README.md"))).toBe(false);

      const since = repl.mark();
      repl.write(keys.esc);
      await Bun.sleep(150);
      repl.write(keys.esc);
      const picker = await repl.waitFor(/rewind[^\n]*\n[\s\S]*turn 1[^\n]*\n/, { since, timeoutMs: 3_000 });
      // Newest first, the newest picked.
      expect(picker.indexOf("turn 2")).toBeLessThan(picker.indexOf("turn 1"));
      expect(picker).toMatch(/› turn 2/);
      repl.write(keys.down);
      await repl.waitFor(/› turn 1/, { since });
      repl.write(keys.enter);
      const done = await repl.waitFor(/undid turns 1–2[^\n]*/, { since, timeoutMs: 5_000 });
      for (const path of ["README.md", "src/main.ts", "notes.txt", PLAN_FILE]) expect(done).toContain(path);
      expect(snapshot(fx.project)).toEqual(before);
      // The picked turn's prompt is back in the prompt line to edit and send again.
      await promptLineHolds(repl, PLAN);

      repl.write(keys.ctrlC);
      await turn(repl, "what is left?", "Heard you.");
      expect(lastRequest()).toContain("what is left?");
      expect(lastRequest()).not.toContain("zebra");
      expect(lastRequest()).not.toContain("walrus");
    });
  }, 40_000);

  test("/undo undoes only the newest turn (refused while that turn runs); the next request keeps turn 1 and not turn 2", async () => {
    await withProject(async (fx, repl) => {
      await turn(repl, PLAN, "Done.");
      const afterOne = snapshot(fx.project);

      const since = repl.mark();
      await repl.send(TIDY);
      await repl.waitFor("sleep 1", { since, timeoutMs: 5_000 });
      await repl.send("/undo");
      await repl.waitFor("/undo waits for the turn", { since });
      await repl.waitFor("Done.", { since, timeoutMs: 10_000 });
      // The refused line waits in the prompt (so the prompt is not bare): the turn is over when its status line goes.
      await until(() => !repl.screen().includes("Esc to interrupt"));
      expect(existsSync(join(fx.project, "README.md"))).toBe(false);

      // The refused line waited in the prompt: Enter runs it now.
      expect(repl.currentLine()).toContain("› /undo");
      const undo = repl.mark();
      repl.write(keys.enter);
      const done = await repl.waitFor(/undid turn 2[^\n]*/, { since: undo, timeoutMs: 5_000 });
      expect(done).toContain("README.md");
      expect(done).not.toContain(PLAN_FILE);
      expect(snapshot(fx.project)).toEqual(afterOne);
      await promptLineHolds(repl, TIDY);

      repl.write(keys.ctrlC);
      await turn(repl, "and now?", "Heard you.");
      expect(lastRequest()).toContain("zebra");
      expect(lastRequest()).not.toContain("walrus");
    });
  }, 40_000);

  test("/undo refuses to overwrite work done since the turn; /undo --force does, and says where the copy is kept", async () => {
    await withProject(async (fx, repl) => {
      const before = snapshot(fx.project);
      await turn(repl, PLAN, "Done.");
      const edited = "# plan, edited by hand after the turn\n";
      writeFileSync(join(fx.project, PLAN_FILE), edited);

      let since = repl.mark();
      await repl.send("/undo");
      await repl.waitFor("--force", { since });
      await repl.idle(since);
      expect(repl.output().slice(since)).toContain(PLAN_FILE);
      expect(readFileSync(join(fx.project, PLAN_FILE), "utf8")).toBe(edited);

      since = repl.mark();
      await repl.send("/undo --force");
      await repl.waitFor(/undid turn 1/, { since, timeoutMs: 5_000 });
      await promptLineHolds(repl, PLAN);
      const kept = /kept in (\S+)/.exec(repl.output().slice(since))?.[1];
      expect(kept).toBeDefined();
      expect(readFileSync(join(kept!, PLAN_FILE), "utf8")).toBe(edited);
      expect(snapshot(fx.project)).toEqual(before);
      repl.write(keys.ctrlC);
    });
  }, 30_000);

  test("one Esc at the prompt opens nothing; with no turn yet, /rewind and Esc Esc say so in a line", async () => {
    await withProject(async (_fx, repl) => {
      let since = repl.mark();
      repl.write(keys.esc);
      await Bun.sleep(700);
      repl.write(keys.esc);
      await Bun.sleep(700);
      expect(repl.output().slice(since)).not.toContain("rewind");

      since = repl.mark();
      repl.write(keys.esc);
      await Bun.sleep(100);
      repl.write(keys.esc);
      await repl.waitFor("no turn to rewind", { since });
      since = repl.mark();
      await repl.send("/rewind");
      await repl.waitFor("no turn to rewind", { since });
      await repl.idle(since);
    });
  }, 30_000);
});
