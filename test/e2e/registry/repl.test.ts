import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../support/binary.ts";
import { makeTestCertificate, removeCertificate, startHttpsServer, type TestCa, type TestHttps } from "../../support/https-server.ts";
import { keys, spawnPty } from "../../support/pty.ts";
import { filesUnder } from "../../support/registry-fixture.ts";
import { TEAM, homeWithRegistry, serveTeamRegistry } from "../../support/registry-site.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";
import type { ScriptedModel } from "../../support/turn.ts";

const NPM_PUBLISH = `npm() { echo "$*" > published.txt; }; npm publish`;

const textOf = (content: any): string => (typeof content === "string" ? content : content.map((part: any) => part.text ?? "").join(""));

/** What the request tells the model after the history (the task list, skill changes). */
const developerNotes = (input: any[]): string =>
  input.filter((item) => item.type === "message" && item.role === "developer").map((item) => textOf(item.content)).join("\n");

/** Says hello to anything but release notes; for those it loads the skill, then answers with what it got. */
const skillUser: ScriptedModel = ({ input }) => {
  const lastUser = input.findLastIndex((item: any) => item.type === "message" && item.role === "user");
  if (!textOf(input[lastUser].content).includes("release notes")) return { text: "Hello." };
  const loaded = input.slice(lastUser).find((item: any) => item.type === "function_call_output");
  return loaded ? { text: `Loaded: ${textOf(loaded.output)}` } : { calls: [{ name: "skill", arguments: { name: TEAM.skillName } }] };
};

let ca: TestCa;
let https: TestHttps;
let api: StrictServer;
let teamUrl: string;

beforeAll(async () => {
  ca = makeTestCertificate();
  https = startHttpsServer(ca);
  teamUrl = serveTeamRegistry(https);
  api = await startStrictServer({
    models: { publisher: sequenceModel([{ name: "bash", arguments: { command: NPM_PUBLISH } }], "Tried to publish."), "skill-user": skillUser },
  });
});
afterAll(async () => {
  await api.stop();
  https.stop();
  removeCertificate(ca);
});

const replEnv = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  SHIRO_HOME: home,
  OPENAI_API_KEY: "test-key-not-a-secret",
  OPENAI_BASE_URL: api.url,
  NODE_EXTRA_CA_CERTS: ca.certPath,
  NO_COLOR: "1",
});

describe("/registry and /skills in the REPL (real terminal, compiled binary)", () => {
  test("browse, confirm an install at the prompt, see it in /skills; a plugin added mid-session applies at once", async () => {
    const home = homeWithRegistry(teamUrl);
    const cwd = tempDir("reg-repl");
    await using pty = spawnPty([BINARY, "--yolo", "-m", "publisher"], {
      cwd,
      cols: 200,
      env: replEnv(home),
    });
    const command = async (line: string, expected: string | RegExp) => {
      const mark = pty.mark();
      await pty.type(line + keys.enter, 1);
      return pty.waitFor(expected, { since: mark });
    };
    await pty.waitFor("› ");

    await command("/skills", "no skills (see /registry list)");
    // Hints name the command as typed here, not the shell's `shiro registry`.
    await command("/registry installed", "Nothing installed from a registry. Try: /registry list");
    await command("/registry frobnicate", "(usage: /registry [list | search <query>");
    await command("/registry list", /plugin +no-npm-publish +- +[0-9a-f]{12} +Refuses npm publish\./);
    expect(pty.screen()).toMatch(/skill +release-notes +- +[0-9a-f]{12} +Draft release notes/);

    // Declining writes nothing.
    await command("/registry add release-notes", `Install skill "release-notes" from ${https.origin}/team/release-notes.md? [y/N]`);
    expect(pty.screen()).toContain(TEAM.skillBody.split("\n").at(-1)!); // the whole text is shown before asking
    await command("n", 'skill "release-notes" not installed.');
    expect(filesUnder(join(home, "registry"))).toEqual([]);

    await command("/registry add release-notes", "[y/N]");
    await command("y", "Skill changes reach the model at its next call, plugin changes at the next tool call.");
    expect(pty.screen()).toContain('installed skill "release-notes"');
    await command("/skills", /release-notes +installed/);

    await command("/registry add no-npm-publish", `when the command matches /${TEAM.pluginPattern}/: ${TEAM.pluginReason}`);
    await command("y", 'installed plugin "no-npm-publish"');
    await command("/registry installed", /plugin +no-npm-publish +\d{4}-\d\d-\d\d +https:/);

    await command("publish the package", "Tried to publish.");
    expect(pty.screen()).toContain(`plugin no-npm-publish: ${TEAM.pluginReason}`);
    expect(existsSync(join(cwd, "published.txt"))).toBe(false);
    const lastInput = api.requests.at(-1)!.body.input as { type: string; output?: string }[];
    expect(lastInput.find((item) => item.type === "function_call_output")?.output).toBe(`Denied: plugin no-npm-publish: ${TEAM.pluginReason}`);

    // Installed mid-session, the skill is told after the history, not in the instructions (whose bytes stay
    // the cached prefix); a new session lists it in its instructions.
    expect(api.requests.at(-1)!.body.instructions).not.toContain("release-notes");
    expect(developerNotes(api.requests.at(-1)!.body.input)).toContain(`- release-notes: ${TEAM.skillDescription}`);
    await command("/clear", "new session");
    // The prompt alone on the last line: the turn is over (while it runs the status line is below it).
    await command("hello again", /\n› $/);
    expect(api.requests.at(-1)!.body.instructions).toContain("- release-notes: ");
    expect(developerNotes(api.requests.at(-1)!.body.input)).not.toContain("release-notes");

    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
    expect(readFileSync(join(home, "registry/plugins/no-npm-publish.json"), "utf8")).toContain(TEAM.pluginReason);
  });

  test("a skill installed with /registry add is loaded by the skill tool in the same session; the cached prefix stays", async () => {
    const home = homeWithRegistry(teamUrl);
    await using pty = spawnPty([BINARY, "-m", "skill-user"], { cwd: tempDir("reg-repl-skill"), cols: 200, env: replEnv(home) });
    const command = async (line: string, expected: string | RegExp) => {
      const mark = pty.mark();
      await pty.type(line + keys.enter, 1);
      return pty.waitFor(expected, { since: mark });
    };
    await pty.waitFor("› ");
    const before = api.requests.length;
    await command("hello", "Hello.");
    const first = api.requests.at(-1)!.body;
    expect(first.tools.map((tool: { name: string }) => tool.name)).not.toContain("skill"); // no skills yet

    await command("/registry add release-notes", "[y/N]");
    await command("y", 'installed skill "release-notes"');
    await command("draft the release notes", `Loaded: ${TEAM.skillBody.split("\n")[0]}`);
    expect(pty.screen()).toContain(TEAM.bodyMarker);

    const [asked, answered] = api.requests.slice(before + 1).map((request) => request.body);
    expect(asked.tools.map((tool: { name: string }) => tool.name)).toContain("skill");
    expect(developerNotes(asked.input)).toContain(`- ${TEAM.skillName}: ${TEAM.skillDescription}`);
    // The instructions are the same bytes as before the install, so the request's cached prefix survives it.
    expect(asked.instructions).toBe(first.instructions);
    expect(answered.instructions).toBe(first.instructions);
    expect(answered.input.find((item: any) => item.type === "function_call_output")?.output).toBe(TEAM.skillBody);

    pty.write(keys.ctrlD);
    expect(await pty.exited).toBe(0);
  });

  test("`shiro registry add` on a terminal asks after the preview; only yes installs", async () => {
    const home = homeWithRegistry(teamUrl);
    const add = async (answer: string) => {
      await using pty = spawnPty([BINARY, "registry", "add", TEAM.skillName], { cwd: tempDir("reg-tty"), env: replEnv(home) });
      await pty.waitFor("[y/N] ");
      expect(pty.screen()).toContain(TEAM.skillBody.split("\n").at(-1)!);
      await pty.type(answer + keys.enter, 1);
      return await pty.exited;
    };
    expect(await add("n")).toBe(1);
    expect(filesUnder(join(home, "registry"))).toEqual([]);
    expect(await add("y")).toBe(0);
    expect(filesUnder(join(home, "registry"))).toEqual([`skills/${TEAM.skillName}.md`, `skills/${TEAM.skillName}.origin.json`]);
  });
});
