/**
 * Issue 30: every recipe in docs/ci.md that uses the action, taken from the page as written (its
 * prompt, args and output-schema), runs once through action/run.sh on the simulated Ubuntu 24.04
 * runner (Landlock) against a scripted model, in an ordinary Node project: it exits 0, the model
 * gets the recipe's prompt verbatim with the file it attaches, and the build recipe's allowed
 * command really builds (a `dist/` made at the project's top).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { HOST_ASSET, runActionStep, serveReleases } from "../../support/action-run.ts";
import { BINARY, REPO } from "../../support/binary.ts";
import { git } from "../../support/guard-projects.ts";
import { NO_USERNS, simulationHere } from "../../support/no-userns.ts";
import { addNodeProject, BUILD_OUTPUT } from "../../support/node-project.ts";
import { tempDir } from "../../support/run-shiro.ts";
import { sequenceModel, type Step } from "../../support/scripts.ts";
import { startStrictServer } from "../../support/strict-server.ts";

type Recipe = { title: string; prompt: string; args: string; outputSchema?: string };

/** The action's steps in docs/ci.md: each ```yaml block's `uses: shiro-neko/shiro-neko` step, its `with:` read as YAML would (`>-` folded). */
export function recipesOf(markdown: string): Recipe[] {
  const recipes: Recipe[] = [];
  let title = "";
  const blocks = markdown.split(/^```/m);
  for (let i = 0; i < blocks.length; i++) {
    if (i % 2 === 0) {
      title = [...blocks[i]!.matchAll(/^###? (.+)$/gm)].at(-1)?.[1] ?? title;
      continue;
    }
    if (!blocks[i]!.startsWith("yaml") || !blocks[i]!.includes("uses: shiro-neko/shiro-neko")) continue;
    const lines = blocks[i]!.split("\n");
    const at = lines.findIndex((l) => /^\s*with:\s*$/.test(l));
    const indent = lines[at + 1]!.match(/^\s*/)![0].length;
    const values: Record<string, string> = {};
    for (let j = at + 1; j < lines.length && lines[j]!.match(/^\s*/)![0].length >= indent && lines[j]!.trim(); j++) {
      const m = /^\s*([\w-]+):\s*(.*)$/.exec(lines[j]!);
      if (!m || lines[j]!.match(/^\s*/)![0].length !== indent) continue;
      let value = m[2]!;
      if (value === ">-") {
        const folded: string[] = [];
        while (lines[j + 1] && lines[j + 1]!.match(/^\s*/)![0].length > indent) folded.push(lines[++j]!.trim());
        value = folded.join(" ");
      }
      values[m[1]!] = /^".*"$/.test(value) ? (JSON.parse(value) as string) : /^'.*'$/.test(value) ? value.slice(1, -1) : value;
    }
    recipes.push({ title, prompt: values.prompt!, args: values.args ?? "", ...(values["output-schema"] ? { outputSchema: values["output-schema"] } : {}) });
  }
  return recipes;
}

const DOC = readFileSync(join(REPO, "docs/ci.md"), "utf8");
const RECIPES = recipesOf(DOC);
const releaseRoot = tempDir("recipe-releases");
let releases: ReturnType<typeof serveReleases>;

beforeAll(() => {
  const dir = join(releaseRoot, "r");
  mkdirSync(dir, { recursive: true });
  copyFileSync(BINARY, join(dir, HOST_ASSET));
  writeFileSync(join(dir, "SHA256SUMS"), `${createHash("sha256").update(readFileSync(join(dir, HOST_ASSET))).digest("hex")}  ${HOST_ASSET}\n`);
  releases = serveReleases(releaseRoot);
});
afterAll(() => releases.stop());

/** A checked-out Node project as a runner has it: a diff, a failed build's log, the gate's schema from the page. */
function workspace(): string {
  const root = join(tempDir("recipe-runner"), "work/proj");
  mkdirSync(root, { recursive: true });
  git(root, "init", "-q");
  addNodeProject(root);
  // The job's earlier step (`npm ci && npm run build | tee build.log`) installed the dependencies.
  Bun.spawnSync(["npm", "ci", "--offline", "--no-audit", "--no-fund"], { cwd: root, stdout: "ignore", stderr: "ignore" });
  writeFileSync(join(root, "pr.diff"), "--- a/src/index.js\n+++ b/src/index.js\n@@ -1 +1 @@\n-module.exports = String(require('dep'));\n+module.exports = require('dep') + 1;\n");
  writeFileSync(join(root, "test.log"), "FAIL test/index.test.js\n  expected '42', got 43\n");
  writeFileSync(join(root, "build.log"), "> proj@1.0.0 build\nnode:internal/modules/cjs/loader:1143\nError: Cannot find module 'dep'\n");
  const schema = /`\.github\/shiro\/migration\.schema\.json`:\s*```json\n([\s\S]*?)```/.exec(DOC)?.[1];
  mkdirSync(join(root, ".github/shiro"), { recursive: true });
  writeFileSync(join(root, ".github/shiro/migration.schema.json"), schema!);
  return root;
}

/** What the scripted model does for a recipe: look at what it is pointed to, then answer (in the schema when there is one). */
function modelFor(recipe: Recipe) {
  const steps: Step[] = recipe.args.includes("npm run build") ? [{ name: "bash", arguments: { command: "npm run build" } }] : [{ name: "read_file", arguments: { path: "src/index.js" } }];
  const answer = recipe.outputSchema ? JSON.stringify({ needsMigration: false, reason: "no schema change", files: [] }) : "Found it: src/index.js:1.";
  return sequenceModel(steps, answer);
}

describe.skipIf(!Bun.which("curl") || !Bun.which("npm") || !simulationHere())("docs/ci.md's recipes through action/run.sh on the simulated 24.04 runner", () => {
  test("the page has the recipes this test runs", () => {
    expect(RECIPES.map((r) => r.title)).toEqual(["The GitHub Action", "Review a diff", "Explain a failed build from its log", "A JSON gate"]);
  });

  for (const recipe of RECIPES) {
    test(`${recipe.title}: exit 0, the prompt arrives verbatim with what it attaches`, async () => {
      const root = workspace();
      const api = await startStrictServer({ models: { "gpt-5": modelFor(recipe) } });
      try {
        const r = await runActionStep({
          cwd: root,
          inputs: { prompt: recipe.prompt, args: recipe.args, "release-url": releases.url("r"), ...(recipe.outputSchema ? { "output-schema": recipe.outputSchema } : {}) },
          env: { OPENAI_BASE_URL: api.url },
          wrap: NO_USERNS,
        });
        expect(r.stderr).not.toContain("::error::");
        expect(r.code).toBe(0);
        // The user's message as the model got it: the prompt, word for word, then the file it attaches.
        const said = JSON.stringify(JSON.parse(api.requests[0]!.raw).input[0].content[0].text);
        expect(said.startsWith(JSON.stringify(recipe.prompt).slice(0, -1))).toBe(true);
        const attached = /@([\w.-]+[\w])/.exec(recipe.prompt)?.[1];
        if (attached) expect(said).toContain(JSON.stringify(readFileSync(join(root, attached), "utf8").split("\n")[1]!).slice(1, -1));
        if (recipe.args.includes("npm run build")) expect(readFileSync(join(root, "dist/out.js"), "utf8")).toBe(BUILD_OUTPUT);
        if (recipe.outputSchema) expect(JSON.parse(r.outputs.result!).needsMigration).toBe(false);
      } finally {
        await api.stop();
      }
    });
  }
});
