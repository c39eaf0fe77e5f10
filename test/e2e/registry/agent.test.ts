import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTestCertificate, removeCertificate, startHttpsServer, type TestCa, type TestHttps } from "../../support/https-server.ts";
import { skillText } from "../../support/registry-fixture.ts";
import { TEAM, homeWithRegistry, pointAt, serveShippedRegistry, serveTeamRegistry, shippedFile } from "../../support/registry-site.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { sequenceModel, visibleOutputs } from "../../support/scripts.ts";
import { startStrictServer, type StrictServer } from "../../support/strict-server.ts";

// Each command defines a stand-in for the program it calls, so the canary file exists only if the call ran.
const PLAIN_FORCE_PUSH = `git() { echo "$*" > pushed.txt; }; git push --force origin main`;
// The guard reads commands statically and cannot know what $(…) prints; the plugin's pattern reads the text.
const HIDDEN_FORCE_PUSH = `git() { echo "$*" > pushed-hidden.txt; }; git push $(echo --force) origin main`;
const NPM_PUBLISH = `npm() { echo "$*" > published.txt; }; npm publish`;
const RISKY = [PLAIN_FORCE_PUSH, HIDDEN_FORCE_PUSH, NPM_PUBLISH].map((command) => ({ name: "bash", arguments: { command } }));


let ca: TestCa;
let https: TestHttps;
let api: StrictServer;
let shippedUrl: string;
let teamUrl: string;

beforeAll(async () => {
  ca = makeTestCertificate();
  https = startHttpsServer(ca);
  shippedUrl = serveShippedRegistry(https);
  teamUrl = serveTeamRegistry(https);
  api = await startStrictServer({
    models: {
      risky: sequenceModel(RISKY, "Tried all three."),
      "skill-user": sequenceModel([{ name: "skill", arguments: { name: "release-notes" } }], "Loaded the skill."),
    },
  });
});
afterAll(async () => {
  await api.stop();
  https.stop();
  removeCertificate(ca);
});

const env = () => ({ NODE_EXTRA_CA_CERTS: ca.certPath, OPENAI_BASE_URL: api.url });

async function install(home: string, registryUrl: string, name: string) {
  pointAt(home, registryUrl);
  const r = await runShiro(["registry", "add", name, "--yes"], { cwd: tempDir("reg-cwd"), home, env: env() });
  expect([r.code, r.stderr]).toEqual([0, ""]);
}

/** One print-mode run under --yolo; returns the project dir and the requests the API received. */
async function agentRun(home: string, model: string) {
  const cwd = tempDir("reg-proj");
  const before = api.requests.length;
  const run = await runShiro(["-p", "--yolo", "-m", model, "go"], { cwd, home, env: env() });
  return { cwd, run, requests: api.requests.slice(before) };
}

/** What the API was told each bash command produced, from the last request's function_call_outputs. */
function bashOutputs(requests: StrictServer["requests"]): Map<string, string> {
  const outputs = visibleOutputs(requests.at(-1)!.body.input).filter((o) => o.name === "bash");
  return new Map(outputs.map((o) => [(o.arguments as { command: string }).command, o.output]));
}

describe("installed plugins and skills reach a scripted model through the binary", () => {
  test("control: without plugins, --yolo runs what the guard does not recognise", async () => {
    const { cwd, requests } = await agentRun(homeWithRegistry(shippedUrl), "risky");
    const outputs = bashOutputs(requests);
    expect(outputs.get(PLAIN_FORCE_PUSH)).toStartWith("Denied: guard: destructive command git push --force");
    expect(readFileSync(join(cwd, "pushed-hidden.txt"), "utf8")).toBe("push --force origin main\n");
    expect(readFileSync(join(cwd, "published.txt"), "utf8")).toBe("publish\n");
    expect(existsSync(join(cwd, "pushed.txt"))).toBe(false);
    // No skills installed: no skill tool and no Skills section.
    expect(requests[0]!.body.tools.map((t: { name: string }) => t.name)).not.toContain("skill");
    expect(requests[0]!.body.instructions).not.toContain("# Skills");
  });

  test("installed plugins refuse matching bash calls under --yolo, with their own reasons", async () => {
    const home = homeWithRegistry(shippedUrl);
    await install(home, shippedUrl, "no-force-push");
    await install(home, teamUrl, "no-npm-publish");
    const { cwd, run, requests } = await agentRun(home, "risky");
    const outputs = bashOutputs(requests);
    const forcePushReason = JSON.parse(shippedFile("registry/plugins/no-force-push.json")).deny[0].reason;
    expect(outputs.get(PLAIN_FORCE_PUSH)).toStartWith("Denied: guard: destructive command git push --force");
    expect(outputs.get(HIDDEN_FORCE_PUSH)).toBe(`Denied: plugin no-force-push: ${forcePushReason}`);
    expect(outputs.get(NPM_PUBLISH)).toBe(`Denied: plugin no-npm-publish: ${TEAM.pluginReason}`);
    for (const canary of ["pushed.txt", "pushed-hidden.txt", "published.txt"]) expect(existsSync(join(cwd, canary))).toBe(false);
    expect([run.code, run.stdout]).toEqual([4, "Tried all three.\n"]); // 4: the run finished with calls denied
  });

  test("an installed skill's description is in the instructions; its body arrives only as the skill tool's output", async () => {
    const home = homeWithRegistry(teamUrl);
    await install(home, teamUrl, "release-notes");
    const { run, requests } = await agentRun(home, "skill-user");
    expect([run.code, run.stdout]).toEqual([0, "Loaded the skill.\n"]);
    expect(requests).toHaveLength(2);
    const [first, second] = requests as [StrictServer["requests"][0], StrictServer["requests"][0]];

    expect(first.body.instructions).toContain(`- release-notes: ${TEAM.skillDescription}`);
    expect(first.body.tools.map((t: { name: string }) => t.name)).toContain("skill");
    expect(first.raw).not.toContain(TEAM.bodyMarker);

    expect(second.body.instructions).toBe(first.body.instructions);
    const loaded = visibleOutputs(second.body.input).filter((o) => o.name === "skill");
    expect(loaded).toEqual([{ callId: expect.any(String), name: "skill", arguments: { name: "release-notes" }, output: TEAM.skillBody }]);
    expect(second.raw.split(TEAM.bodyMarker)).toHaveLength(2); // exactly once: in that output
  });

  test("a skill the person wrote outranks an installed one of the same name", async () => {
    const home = homeWithRegistry(teamUrl);
    await install(home, teamUrl, TEAM.skillName);
    mkdirSync(join(home, "skills"));
    writeFileSync(join(home, "skills", `${TEAM.skillName}.md`), skillText(TEAM.skillName, "Our own way of writing release notes.", "Use the house template. Marker: PERSONAL-BODY-41c2."));
    const { run, requests } = await agentRun(home, "skill-user");
    expect(run.code).toBe(0);
    const instructions: string = requests[0]!.body.instructions;
    expect(instructions).toContain(`- ${TEAM.skillName}: Our own way of writing release notes.`);
    expect(instructions).not.toContain(TEAM.skillDescription);
    const loaded = visibleOutputs(requests[1]!.body.input).find((o) => o.name === "skill");
    expect(loaded?.output).toBe("Use the house template. Marker: PERSONAL-BODY-41c2.");
    expect(requests.some((q) => q.raw.includes(TEAM.bodyMarker))).toBe(false);
  });
});
