import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildLog, expectCut } from "../../support/cut-log.ts";
import { keys } from "../../support/pty.ts";
import { randomBytes } from "../../support/random-bytes.ts";
import { PROMPT, savedSessions, startRepl } from "../../support/repl-pty.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

let server: StrictServer;
beforeAll(async () => {
  server = await startStrictServer();
});
afterAll(() => server.stop());

const since = (n: number) => server.requests.slice(n);
const userTextOf = (body: any): string => {
  const user = body.input.filter((i: any) => i.type === "message" && i.role === "user").at(-1);
  return typeof user.content === "string" ? user.content : user.content.map((p: any) => p.text).join("");
};

function project(files: Record<string, string>): string {
  const dir = tempDir("repl-proj");
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

// The file name the issue specifies: first 16 hex of sha256(cwd).
const historyFile = (home: string, cwd: string) => join(home, "history", `${createHash("sha256").update(cwd).digest("hex").slice(0, 16)}.json`);

describe("REPL input through a real pty", () => {
  test("prompt history: saved per folder (deduped, capped at 200); ↑/↓ walk it in the next run; ↓ past the newest restores the draft", async () => {
    const cwd = tempDir("repl-proj");
    const home = tempDir("repl-home");
    const file = historyFile(home, cwd);
    mkdirSync(join(home, "history"));
    writeFileSync(file, JSON.stringify({ entries: Array.from({ length: 199 }, (_, i) => `old ${i}`) }));
    {
      await using repl = await startRepl({ cwd, baseUrl: server.url, home });
      for (const line of ["first prompt", "second prompt", "second prompt"]) {
        const mark = repl.mark();
        await repl.send(line);
        await repl.waitFor(`You said: ${line}`, { since: mark });
        await repl.idle(mark);
      }
      expect(await repl.quit()).toBe(0);
    }
    const entries: string[] = JSON.parse(readFileSync(file, "utf8")).entries;
    expect(entries).toHaveLength(200);
    expect(entries[0]).toBe("old 1");
    expect(entries.slice(-3)).toEqual(["old 198", "first prompt", "second prompt"]);

    await using repl = await startRepl({ cwd, baseUrl: server.url, home });
    repl.write(keys.up);
    await repl.waitFor(/› second prompt$/);
    repl.write(keys.up);
    await repl.waitFor(/› first prompt$/);
    repl.write(keys.up);
    await repl.waitFor(/› old 198$/);
    repl.write(keys.down);
    await repl.waitFor(/› first prompt$/);
    repl.write(keys.down);
    await repl.waitFor(/› second prompt$/);
    repl.write(keys.down);
    await repl.waitFor(/› $/);
    // With text typed, ↑ offers only the entries starting with it; ↓ past the newest gives the draft back.
    await repl.type("fir", 1);
    repl.write(keys.up);
    await repl.waitFor(/› first prompt$/);
    repl.write(keys.down);
    await repl.waitFor(/› fir$/);
    expect(repl.currentLine()).toBe(`${PROMPT}fir`);
    repl.write(keys.enter);
    await repl.waitFor("You said: fir");
    await repl.idle();
    expect(await repl.quit()).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8")).entries.at(-1)).toBe("fir");
  });

  test("Tab completes /he → /help and @no → @notes/, listing project files but not gitignored ones", async () => {
    const cwd = project({ ".gitignore": "*.log\n", "notes/alpha.txt": "a\n", "notes/beta.txt": "b\n", "notes/debug.log": "x\n", "other.txt": "o\n" });
    mkdirSync(join(cwd, ".git"));
    await using repl = await startRepl({ cwd, baseUrl: server.url });
    await repl.type("/he", 1);
    repl.write(keys.tab);
    // The slash menu lists what matches below the prompt.
    await repl.waitFor(/^› \/help\n {2}\/help +show this menu$/m);
    repl.write(keys.enter);
    await repl.waitFor("/model [id | --force id]");
    expect(repl.screen()).toMatch(/\/help +show this menu/);
    await repl.idle();

    await repl.type("read @no", 1);
    repl.write(keys.tab);
    await repl.waitFor(/› read @notes\/$/);
    repl.write(keys.tab);
    await repl.waitFor("@notes/beta.txt");
    const screen = repl.screen();
    expect(screen).toContain("@notes/alpha.txt");
    expect(screen).not.toContain("debug.log");
    repl.write("\x15"); // Ctrl-U: Ctrl-D only quits at an empty line
    expect(await repl.quit()).toBe(0);
  });

  test("@path attaches the file's content to the prompt; @.env is refused and never sent", async () => {
    const cwd = project({ "notes/plan.md": "PLAN-CONTENT-42\n", ".env": "API_TOKEN=do-not-send-7731\n" });
    await using repl = await startRepl({ cwd, baseUrl: server.url });
    const before = server.requests.length;
    await repl.send("summarise @notes/plan.md");
    await repl.waitFor("attached notes/plan.md");
    await repl.idle();
    const text = userTextOf(since(before)[0]!.body);
    expect(text).toStartWith("summarise @notes/plan.md");
    expect(text).toContain('<file path="notes/plan.md">\nPLAN-CONTENT-42');

    const mark = repl.mark();
    const next = server.requests.length;
    await repl.send("check @.env");
    await repl.waitFor("not attached: .env", { since: mark });
    await repl.idle(mark);
    expect(since(next).some((r) => r.raw.includes("do-not-send-7731"))).toBe(false);
    expect(await repl.quit()).toBe(0);
  });

  test("@ of a 300 KB log sends its head and tail with the cut named on screen, as print mode does; a binary file is refused by name", async () => {
    const lines = buildLog(300_000);
    const cwd = project({ "build.log": lines.join("\n") + "\n" });
    const home = tempDir("repl-home");
    writeFileSync(join(cwd, "core.bin"), randomBytes(4_096));
    try {
      await using repl = await startRepl({ cwd, baseUrl: server.url, home, cols: 160 });
      const before = server.requests.length;
      await repl.send("explain the failure in @build.log, not @core.bin");
      await repl.waitFor("attached build.log");
      await repl.idle();
      const text = userTextOf(since(before)[0]!.body);
      const open = 'explain the failure in @build.log, not @core.bin\n\n<file path="build.log">\n';
      expect(text).toStartWith(open);
      expect(text).toEndWith(`${lines.at(-1)}\n\n</file>`);
      const figures = expectCut(text.slice(open.length, -"\n\n</file>".length), lines, "build.log");
      const screen = repl.screen();
      expect(screen).toContain("! not attached: core.bin is binary, not UTF-8 text (4,096 bytes)");
      expect(screen).toContain(`! build.log is too large to attach whole: ${figures} left out of its middle (marked in the text)`);
      expect(since(before).some((r) => /\\u0000|\ufffd/i.test(r.raw))).toBe(false);
      expect(await repl.quit()).toBe(0);
    } finally {
      for (const dir of [cwd, home]) rmSync(dir, { recursive: true, force: true });
    }
  });

  test("/model lists the endpoint's models, refuses an unknown one with the nearest names (--force overrides), switches the next request's model", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url });
    let mark = repl.mark();
    await repl.send("/model");
    await repl.waitFor(/model: gpt-5\nthe endpoint offers:\n {2}gpt-4\.1 {2}gpt-4\.1-mini {2}gpt-4o {2}gpt-5/, { since: mark });
    mark = repl.mark();
    await repl.send("/model gpt-4.2");
    await repl.waitFor('! the endpoint has no model "gpt-4.2"; nearest: gpt-4.1, gpt-4o, gpt-5 (/model --force gpt-4.2 switches anyway)', { since: mark });
    await repl.idle(mark);
    mark = repl.mark();
    await repl.send("/model --force my-finetune");
    await repl.waitFor("model: my-finetune", { since: mark });
    await repl.idle(mark);
    // Asked once: the list is remembered for the session.
    expect(server.requests.filter((r) => r.method === "GET" && r.path === "/v1/models")).toHaveLength(1);
    expect(await repl.quit()).toBe(0);
    const [saved] = savedSessions(repl.home);
    expect(saved.model).toBe("my-finetune");
  });

  test("/model switches the model of the next request, /tools lists the tools, /clear starts afresh, /quit and /q quit with 0", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url });
    const before = server.requests.length;
    await repl.send("one");
    await repl.waitFor("You said: one");
    await repl.idle();
    await repl.send("/model gpt-4.1");
    await repl.waitFor("model: gpt-4.1");
    await repl.send("/tools");
    await repl.waitFor(/read_file +read +\S/);
    expect(repl.screen()).toMatch(/bash +exec +\S/);
    await repl.send("two");
    await repl.waitFor("You said: two");
    await repl.idle();
    await repl.send("/clear");
    await repl.waitFor(/new session [0-9a-f]{8}/);
    await repl.send("three");
    await repl.waitFor("You said: three");
    await repl.idle();
    const [first, second, third] = since(before).filter((r) => r.path === "/v1/responses").map((r) => r.body);
    expect(first.model).toBe("gpt-5");
    expect(second.model).toBe("gpt-4.1");
    expect(second.input.filter((i: any) => i.role === "user")).toHaveLength(2);
    expect(third.input.filter((i: any) => i.role === "user")).toHaveLength(1);
    await repl.send("/quit");
    expect(await repl.exited).toBe(0);
    expect(savedSessions(repl.home)).toHaveLength(2);
    await using again = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url });
    await again.send("/q");
    expect(await again.exited).toBe(0);
  });

  test("a prompt on the command line runs at once, then the REPL waits for more", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url, args: ["start with this"] });
    expect(repl.screen()).toMatch(/^shiro .*\n(.*\n)*› start with this\nYou said: start with this\n› $/);
    await repl.send("and this");
    await repl.waitFor("You said: and this");
    expect(await repl.quit()).toBe(0);
  });

  test("an unknown command suggests the nearest and sends nothing", async () => {
    await using repl = await startRepl({ cwd: tempDir("repl-proj"), baseUrl: server.url });
    const before = server.requests.length;
    await repl.send("/modle");
    await repl.waitFor("unknown command /modle — did you mean /model?");
    await repl.idle();
    expect(server.requests.length).toBe(before);
    expect(await repl.quit()).toBe(0);
  });
});

describe("AGENTS.md instructions, as the REPL sends them", () => {
  function layout(rootRule: string) {
    const home = tempDir("repl-home");
    const root = project({ "AGENTS.md": rootRule, "pkg/app/AGENTS.md": "SUB-RULE: tabs\n" });
    mkdirSync(join(root, ".git"));
    writeFileSync(join(home, "AGENTS.md"), "GLOBAL-RULE: be brief\n");
    return { home, cwd: join(root, "pkg/app") };
  }
  async function instructionsSent(opts: { home: string; cwd: string; args?: string[] }): Promise<{ instructions: string; screen: string }> {
    await using repl = await startRepl({ ...opts, baseUrl: server.url });
    const before = server.requests.length;
    await repl.send("hi");
    await repl.waitFor("You said: hi");
    await repl.idle();
    const screen = repl.screen();
    expect(await repl.quit()).toBe(0);
    return { instructions: since(before)[0]!.body.instructions, screen };
  }

  test("global, then git root, then subfolder, in that order; --no-instructions skips them", async () => {
    const { home, cwd } = layout("ROOT-RULE: use bun\n");
    const { instructions } = await instructionsSent({ home, cwd });
    const at = ["GLOBAL-RULE", "ROOT-RULE", "SUB-RULE"].map((rule) => instructions.indexOf(rule));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);

    const skipped = await instructionsSent({ home, cwd, args: ["--no-instructions"] });
    for (const rule of ["GLOBAL-RULE", "ROOT-RULE", "SUB-RULE"]) expect(skipped.instructions).not.toContain(rule);
  });

  test("more than 32 KiB is cut, and the REPL says so", async () => {
    const { home, cwd } = layout(`ROOT-RULE\n${"x".repeat(40 * 1024)}\n`);
    const { instructions, screen } = await instructionsSent({ home, cwd });
    expect(screen).toContain("AGENTS.md instructions cut at 32 KiB");
    expect(instructions).toContain("[AGENTS.md content cut at 32 KiB]");
    expect(instructions).toContain("ROOT-RULE");
    expect(instructions).not.toContain("SUB-RULE");
  });
});
