/**
 * Issue 30, "Honest work passes the box": what the person wrote reaches the model as written. The
 * GitHub Action hands its `prompt` to shiro in INPUT_PROMPT, a variable shiro used to hide from
 * commands and then redact everywhere because its value "looked secret" — the model got
 * `[redacted INPUT_PROMPT]` instead of the task. Here action/run.sh runs as a runner runs it, on both
 * sandbox backends (bubblewrap, and Landlock on a simulated Ubuntu 24.04 runner), and `NOTE="$P" shiro -p "$P"`
 * runs with prompts of many shapes: the first request carries the prompt byte for byte, an attached
 * file whole, and a command echoing the variable shows it as it is — while the runner's secrets, in
 * the same run, reach no request.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { publishRelease, runActionStep, serveReleases } from "../../support/action-run.ts";
import { simulationHolds } from "../../support/no-userns.ts";
import { RUNNER_BACKENDS } from "../../support/runner-backends.ts";
import { runShiro, tempDir } from "../../support/run-shiro.ts";
import { firstUserText, sequenceModel, visibleOutputs, type PlannedCall } from "../../support/scripts.ts";
import { startStrictServer, type RecordedRequest, type StrictServer } from "../../support/strict-server.ts";

const hasBwrap = RUNNER_BACKENDS[0]!.runs;
const bash = (command: string): PlannedCall => ({ name: "bash", arguments: { command } });
const ECHO = bash('printf "[%s]\\n" "$INPUT_PROMPT" "$NOTE" "$GITHUB_SHA" "$GITHUB_REPOSITORY" "$RUNNER_OS" "$GITHUB_TOKEN" "$ACTIONS_RUNTIME_TOKEN"');

let api: StrictServer;
let releases: ReturnType<typeof serveReleases>;
beforeAll(async () => {
  api = await startStrictServer({ defaultModel: sequenceModel([ECHO], "Answered.") });
  const root = tempDir("releases");
  publishRelease(root, "good");
  releases = serveReleases(root);
});
afterAll(async () => {
  await api.stop();
  releases.stop();
});

/** The exact text of the first request's user message, and that it stands in the body's bytes as JSON writes it. */
function firstPrompt(requests: RecordedRequest[]): string {
  const text = firstUserText(requests[0]!.body.input);
  expect(requests[0]!.raw).toContain(JSON.stringify(text));
  return text;
}

const echoed = (requests: RecordedRequest[]) => visibleOutputs(requests.at(-1)!.body.input).find((o) => o.name === "bash")?.output ?? "";

const RUNNER_SECRETS = { GITHUB_TOKEN: "ghs_runnerTokenValue0123456789abcdefXYZ", ACTIONS_RUNTIME_TOKEN: "runtime-token-value-0123456789", ACTIONS_ID_TOKEN_REQUEST_TOKEN: "id-request-token-0123456789" };

describe.skipIf(!Bun.which("curl"))("the Action's prompt reaches the model as written", () => {
  for (const { name: backend, wrap, runs } of RUNNER_BACKENDS)
    test.skipIf(!runs)(`action/run.sh with INPUT_PROMPT holding punctuation, an @path and a '?' (${backend})`, async () => {
      if (wrap.length) expect(simulationHolds()).toBeUndefined();
      const cwd = tempDir("verbatim-ws");
      const readme = "# app\nThe test in test/money.test.ts:12 rounds 0.1 + 0.2 to 0.30000000000000004.\n";
      writeFileSync(join(cwd, "README"), readme);
      const prompt = "Why does the test in @README fail? Cite file:line.";
      const sha = "3f786850e387550fdab836ed7e6dc881de23001b";
      const before = api.requests.length;
      const r = await runActionStep({
        cwd,
        inputs: { prompt, "release-url": releases.url("good") },
        env: { OPENAI_BASE_URL: api.url, RUNNER_OS: "Linux", GITHUB_SHA: sha, GITHUB_REPOSITORY: "acme/app", CI: "true", ...RUNNER_SECRETS },
        wrap,
      });
      const requests = api.requests.slice(before);
      expect([r.code, r.outputs.result]).toEqual([0, "Answered."]);

      // The prompt, byte for byte, then the attached file whole: no `[redacted INPUT_PROMPT]`.
      expect(firstPrompt(requests)).toBe(`${prompt}\n\n<file path="README">\n${readme}\n</file>`);
      // A command sees the prompt and the runner's variables as they are; not the runner's tokens.
      expect(echoed(requests)).toStartWith(`[${prompt}]\n[]\n[${sha}]\n[acme/app]\n[Linux]\n[]\n[]\n`);
      for (const value of Object.values(RUNNER_SECRETS)) expect(requests.filter((q) => q.raw.includes(value)).length).toBe(0);
    });
});

describe('NOTE="$P" shiro -p "$P"', () => {
  const SHAPES = [
    "Fix the flaky build!!! (see #42; it's urgent) -- thanks :)",
    "Deploy 3 pods at 10:30 on 2024-05-17 with 4096MB, v1.2.3 and 0.5 CPU",
    "Ask jane.doe+ci@example.org why the release stalled",
    "Compare https://example.com:8443/api/v2/items?id=42&sort=desc#top with staging",
    "Look at /home/runner/work/app/src/index.ts:42 and ./build/out/main.js",
    "Why does `npm test` fail on Node 20? What changed in a1b2c3d?",
  ];

  for (const P of SHAPES)
    test.skipIf(!hasBwrap)(`the request holds it as written: ${P}`, async () => {
      const before = api.requests.length;
      const run = await runShiro(["-p", P], { cwd: tempDir("verbatim-note"), env: { OPENAI_BASE_URL: api.url, NOTE: P } });
      const requests = api.requests.slice(before);
      expect([run.code, run.stdout]).toEqual([0, "Answered.\n"]);
      expect(firstPrompt(requests)).toBe(P);
      // The variable holding the same words is no secret: a command shows it as it is.
      expect(echoed(requests)).toStartWith(`[]\n[${P}]\n`);
    });
});
