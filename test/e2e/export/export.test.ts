/**
 * `shiro export` and `shiro import` through the binary, on a session the binary made against the
 * strict server: a `bash` call whose output holds a value of the project's `.env` (redacted in the
 * log) and a `<script>`, a `write_file` that creates a file (a diff), and an MCP tool that returns a
 * PNG. Each format is exported; the JSON goes to another home and folder (the next CI job), is
 * imported there, and `shiro -c` sends the imported history.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import { lastUserText, sequenceModel } from "../../support/scripts.ts";
import { HOSTILE } from "../../support/mcp-servers.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const SECRET = "tok-7c41f0e9b2d85a36e1";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PROMPT = "Look at notes.txt, write hello.txt and fetch the picture.";
const ANSWER = "Done: notes read, hello.txt written, the picture fetched.";
const NEXT = "next";

const job = sequenceModel(
  [
    { name: "bash", arguments: { command: "cat notes.txt", timeout_ms: 10_000 } },
    { name: "write_file", arguments: { path: "hello.txt", content: "hello\nworld\n" } },
    { name: "mcp__h__picture", arguments: {} },
  ],
  ANSWER,
);
const model: ScriptedModel = (req) => (lastUserText(req.input) === NEXT ? { text: "going on from the imported history" } : job(req));

let server: StrictServer;
let home: string;
let cwd: string;
let id: string;

const shiro = (args: string[], opts: { cwd?: string; home?: string } = {}) => runShiro(args, { cwd: opts.cwd ?? cwd, home: opts.home ?? home, env: { OPENAI_BASE_URL: server.url } });
const MCP = () => ["--mcp-config", join(cwd, "servers.json"), "--allow", "mcp__h__*"];

beforeAll(async () => {
  server = await startStrictServer({ models: { "gpt-5": model } });
  home = tempDir("export-home");
  cwd = tempDir("export-project");
  writeFileSync(join(cwd, ".env"), `DEPLOY_TOKEN=${SECRET}\n`);
  writeFileSync(join(cwd, "notes.txt"), `deploy with ${SECRET}\n<script>alert("owned")</script>\n`);
  writeFileSync(join(cwd, "servers.json"), JSON.stringify({ mcpServers: { h: { command: process.execPath, args: [HOSTILE, "images"] } } }));
  const r = await shiro(["-p", "--yolo", ...MCP(), PROMPT]);
  expect([r.code, r.stdout]).toEqual([0, `${ANSWER}\n`]);
  id = JSON.parse((await shiro(["sessions", "--json"])).stdout)[0].id;
});
afterAll(async () => {
  await server.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

/** Nothing of the secret, in any form a reader could take it from. */
const expectNoSecret = (text: string) => {
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain(SECRET.slice(4, 16));
};

describe("shiro export", () => {
  test("the control: the value is in the project's files, and the log holds it only as its marker", () => {
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toContain(SECRET);
    const log = readFileSync(join(home, "sessions", `${id}.jsonl`), "utf8");
    expect(log).toContain("deploy with [redacted .env]");
    expectNoSecret(log);
  });

  test("md (the default) on stdout: the prompt, each call with its outcome line, the diff, the image named, the answer, the cost; the secret redacted", async () => {
    const r = await shiro(["export", id.slice(0, 13)]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const md = r.stdout;
    expect(md).toStartWith(`# ${PROMPT}\n`);
    expect(md).toContain(`| session | ${id} |`);
    expect(md).toMatch(/\| cost \| \$0\.\d+ \|/);
    expect(md).toContain(`## Turn 1 · `);
    expect(md).toContain(`> ${PROMPT}`);
    expect(md).toContain("**● bash** `cat notes.txt`  \n✓ deploy with \\[redacted .env\\] (+1 line)");
    expect(md).toContain("**● write\\_file** `hello.txt`  \n✓ Created hello.txt (2 lines)");
    expect(md).toContain("```diff\n--- /dev/null\n+++ hello.txt\n+hello\n+world\n```");
    expect(md).toContain("**● mcp\\_\\_h\\_\\_picture**  \n✓ \\[image 1: image/png, 70 B\\] (+2 lines)");
    expect(md).toContain("_[image: image/png, 70 B]_");
    expect(md).toContain(`<details><summary>output</summary>\n\n\`\`\`text\ndeploy with [redacted .env]\n<script>alert("owned")</script>\n\nExit code: 0\n\`\`\``);
    expect(md).toContain(ANSWER);
    expectNoSecret(md);
  });

  test("html into -o's file: one page, no script of its own or the output's, the PNG inline, the secret redacted", async () => {
    const file = join(cwd, "out", "session.html");
    const r = await shiro(["export", id, "--format", "html", "-o", file]);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "", `exported session ${id} to ${file} (html)\n`]);
    const html = readFileSync(file, "utf8");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(html).toStartWith("<!doctype html>");
    expect(html.toLowerCase()).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;");
    expect(html).toContain("deploy with [redacted .env]");
    expect(html).toContain(`<img alt="image/png, 70 B" src="data:image/png;base64,${PNG}">`);
    expect(html).toContain('<span class="add">+hello</span>');
    expect(html).not.toMatch(/(?:src|href)="(?!data:image\/png)/);
    expectNoSecret(html);
  });

  test("json: the documented shape, version 1, the image in base64, the secret redacted", async () => {
    const r = await shiro(["export", id, "--format", "json"]);
    expect(r.code).toBe(0);
    expectNoSecret(r.stdout);
    const doc = JSON.parse(r.stdout);
    expect([doc.format, doc.version, doc.session.id, doc.session.state, doc.children]).toEqual(["shiro-session", 1, id, "answered", []]);
    expect(doc.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "tool", "assistant"]);
    const results = doc.messages.flatMap((m: any) => m.results ?? []);
    expect(results.map((r: any) => [r.tool, r.outcome])).toEqual([
      ["bash", "✓ deploy with [redacted .env] (+1 line)"],
      ["write_file", "✓ Created hello.txt (2 lines)"],
      ["mcp__h__picture", "✓ [image 1: image/png, 70 B] (+2 lines)"],
    ]);
    expect(results[2].images).toEqual([{ mediaType: "image/png", data: PNG }]);
    expect(doc.totals.costUsd).toBeGreaterThan(0);
    expect(r.stdout).not.toContain("encrypted");
  });

  test("wrong use: an unknown format, a folder for -o, no session — one line, exit 2", async () => {
    const runs = await Promise.all([shiro(["export", id, "--format", "pdf"]), shiro(["export", id, "-o", cwd]), shiro(["export", "ffffffff"]), shiro(["export"])]);
    expect(runs.map((r) => [r.code, r.stdout])).toEqual(Array(4).fill([2, ""]));
    expect(runs.map((r) => r.stderr)).toEqual([
      'shiro: --format is md, json or html, not "pdf"\n',
      `shiro: -o ${cwd} is a folder; name the file the export goes to\n`,
      'shiro: no session matches "ffffffff" (see shiro sessions)\n',
      "shiro: export needs a session id from shiro sessions (usage: shiro export <session> [--format md|json|html] [-o <file>])\n",
    ]);
  });
});

describe("shiro import, then -c (the next CI job: another home, another folder)", () => {
  let nextHome: string;
  let nextCwd: string;
  let file: string;
  let exported: any;
  beforeAll(async () => {
    nextHome = tempDir("import-home");
    nextCwd = tempDir("import-project");
    file = join(nextCwd, "session.json");
    expect((await shiro(["export", id, "--format", "json", "-o", file])).code).toBe(0);
    exported = JSON.parse(readFileSync(file, "utf8"));
  });
  afterAll(() => {
    rmSync(nextHome, { recursive: true, force: true });
    rmSync(nextCwd, { recursive: true, force: true });
  });

  const next = (args: string[]) => shiro(args, { cwd: nextCwd, home: nextHome });
  const sessionsHere = () => (existsSync(join(nextHome, "sessions")) ? readdirSync(join(nextHome, "sessions")).filter((f) => f.endsWith(".jsonl")) : []);

  test("a file that is not an export, or whose history is impossible, is refused in one line and nothing is written", async () => {
    const bad = (name: string, text: string) => {
      writeFileSync(join(nextCwd, name), text);
      return next(["import", name]);
    };
    const orphan = structuredClone(exported);
    orphan.messages[2].results[0].callId = "call_nobody_made";
    const runs = [
      await bad("torn.json", readFileSync(file, "utf8").slice(0, 300)),
      await bad("other.json", JSON.stringify({ name: "package", version: "1.0.0" })),
      await bad("newer.json", JSON.stringify({ ...exported, version: 2 })),
      await bad("wrong.json", JSON.stringify({ ...exported, messages: [{ role: "user" }] })),
      await bad("orphan.json", JSON.stringify(orphan)),
      await next(["import", "missing.json"]),
    ];
    expect(runs.map((r) => [r.code, r.stdout, r.stderr.split("\n").length])).toEqual(Array(6).fill([2, "", 2]));
    const said = runs.map((r) => r.stderr);
    expect(said[0]).toStartWith("shiro: torn.json is not JSON (");
    expect(said[1]).toBe('shiro: other.json is not a shiro session export (it has no "format": "shiro-session"); shiro import reads what shiro export --format json writes\n');
    expect(said[2]).toBe("shiro: newer.json is a version 2 export; this shiro reads version 1 (a newer shiro wrote it: update this one); shiro import reads what shiro export --format json writes\n");
    expect(said[3]).toBe("shiro: wrong.json is not a valid version 1 export (messages.0.text: Invalid input: expected string, received undefined); shiro import reads what shiro export --format json writes\n");
    expect(said[4]).toBe("shiro: orphan.json cannot be imported: the imported history is impossible: message 3 holds a result for call_nobody_made, which the answer before it did not call\n");
    expect(said[5]).toBe("shiro: cannot read missing.json: ENOENT\n");
    expect(sessionsHere()).toEqual([]);
  });

  test("import makes a new session of this folder; -c sends the imported history, which the strict server takes", async () => {
    const r = await next(["import", "session.json"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const listed = JSON.parse((await next(["sessions", "--json"])).stdout);
    expect(listed).toHaveLength(1);
    const imported = listed[0];
    expect(imported.id).not.toBe(id);
    expect([imported.cwd, imported.title, imported.state]).toEqual([nextCwd, PROMPT, "answered"]);
    expect(r.stdout).toBe(`imported session.json as session ${imported.id} (1 turn, 8 messages, from session ${id}); shiro -c goes on with it\n`);
    // The inspector names where the history came from; its turn was made by no call of this log.
    const inspected = (await next(["inspect", imported.id])).stdout;
    expect(inspected).toContain(`imported  from session ${id}, exported ${exported.exportedAt}\n`);
    expect(inspected).toMatch(new RegExp(`\\n +1  imported  ${PROMPT.replace(".", "\\.")} +0 calls`));
    expect((await next(["inspect", imported.id, "--turns"])).stdout).toContain(`turn 1 · imported (answered) · "${PROMPT}" · its calls were another session's\n`);

    const before = server.requests.length;
    const c = await next(["-c", "-p", "--yolo", NEXT]);
    expect([c.code, c.stdout]).toEqual([0, "going on from the imported history\n"]);
    const sent = server.requests.slice(before);
    expect(sent.map((q) => q.status)).toEqual([200]);
    const input: any[] = sent[0]!.body.input;
    // The history as the original session would send it, less its encrypted reasoning (valid only for the account that made it).
    const original = await originalContinued();
    expect(input).toEqual(original.filter((item) => item.type !== "reasoning"));
    expect(input.filter((i) => i.type === "function_call").map((i) => i.name)).toEqual(["bash", "write_file", "mcp__h__picture"]);
    expect(JSON.stringify(input)).toContain("deploy with [redacted .env]");
    expect(JSON.stringify(input)).toContain(`data:image/png;base64,${PNG}`);
    expect(input.at(-2)).toMatchObject({ type: "message", role: "assistant", content: [{ type: "output_text", text: ANSWER }] });
    expect(input.at(-1)).toMatchObject({ type: "message", role: "user", content: [{ type: "input_text", text: NEXT }] });
    expectNoSecret(sent[0]!.raw);
  });

  test("what no other account could send is never imported: an export carrying encrypted reasoning and response ids still makes a request the server takes", async () => {
    const foreign = structuredClone(exported);
    for (const m of foreign.messages.filter((m: any) => m.role === "assistant")) {
      m.responseId = "resp_from_elsewhere";
      for (const p of m.parts) if (p.type === "reasoning") Object.assign(p, { itemId: "rs_elsewhere", encrypted: "gAAAbm90IG91cnM.forged" });
    }
    const elsewhere = join(nextCwd, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "foreign.json"), JSON.stringify(foreign));
    expect((await shiro(["import", "foreign.json"], { cwd: elsewhere, home: nextHome })).code).toBe(0);
    const log = readdirSync(join(nextHome, "sessions")).filter((f) => f.endsWith(".jsonl")).map((f) => readFileSync(join(nextHome, "sessions", f), "utf8")).join("");
    expect(log).not.toContain("forged");
    expect(log).not.toContain("_elsewhere");
    const before = server.requests.length;
    const c = await shiro(["-c", "-p", NEXT], { cwd: elsewhere, home: nextHome });
    expect(c.code).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent.map((q) => q.status)).toEqual([200]);
    expect(sent[0]!.body.input.filter((i: any) => i.type === "reasoning")).toEqual([]);
    expect(sent[0]!.body.input.filter((i: any) => i.type === "function_call")).toHaveLength(3);
  });

  /** What `-c` of the original session sends (a copy of its home, so the session under test stays as it was). */
  async function originalContinued(): Promise<any[]> {
    const copy = tempDir("export-copy");
    try {
      mkdirSync(join(copy, "sessions"), { recursive: true });
      for (const f of readdirSync(join(home, "sessions"))) if (f.endsWith(".jsonl")) writeFileSync(join(copy, "sessions", f), readFileSync(join(home, "sessions", f)));
      const before = server.requests.length;
      expect((await shiro(["-r", id, "-p", "--yolo", NEXT], { home: copy })).code).toBe(0);
      return server.requests[before]!.body.input;
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
});
