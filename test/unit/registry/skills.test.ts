import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPrompt } from "../../../src/agent/load-prompt.ts";
import { promptForRequest } from "../../../src/agent/prompt-for-request.ts";
import { commitInstall } from "../../../src/registry/install.ts";
import { liveSkills } from "../../../src/registry/live-skills.ts";
import { loadSkills, type Skill } from "../../../src/registry/load-skills.ts";
import { createSkillTool } from "../../../src/registry/skill-tool.ts";
import { skillsInstructions } from "../../../src/registry/skills-instructions.ts";
import { skillsUpdate } from "../../../src/registry/skills-update.ts";
import { renderSkillsTable } from "../../../src/registry/skills-table.ts";
import { validateBody } from "../../../src/registry/validate-body.ts";
import { removeDir, sha256, skillText, tempHome } from "../../support/registry-fixture.ts";

let home: string;
let root: string;
beforeEach(() => {
  home = tempHome();
  root = tempHome();
});
afterEach(() => {
  removeDir(home);
  removeDir(root);
});

async function install(name: string, description: string, body: string) {
  const text = skillText(name, description, body);
  const entry = { name, description, url: `https://registry.example/${name}.md` };
  const valid = validateBody("skill", entry, new TextEncoder().encode(text));
  const origin = { kind: "skill" as const, name, indexUrl: "https://registry.example/index.json", entryUrl: entry.url, sha256: sha256(text), installedAt: "2026-11-30T10:00:00.000Z" };
  await commitInstall(home, { body: valid, origin });
}

function write(dir: string, file: string, text: string) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
}

test("each layer overrides the one below: built-in → installed → personal → project", async () => {
  const builtin = [
    { name: "review", description: "built-in review", body: "B" },
    { name: "plan", description: "built-in plan", body: "B" },
  ];
  await install("review", "installed review", "I");
  await install("deploy", "installed deploy", "I");
  write(join(home, "skills"), "review.md", skillText("review", "personal review", "P"));
  write(join(root, ".shiro", "skills"), "review.md", skillText("review", "project review", "R"));
  const skills = await loadSkills({ home, root, builtin });
  expect(skills.map((skill) => [skill.name, skill.layer, skill.body, skill.overrides])).toEqual([
    ["deploy", "installed", "I", []],
    ["plan", "built-in", "B", []],
    ["review", "project", "R", ["built-in", "installed", "personal"]],
  ]);
});

test("an installed skill never shadows one the person wrote", async () => {
  write(join(home, "skills"), "mine.md", skillText("commit-message", "my own way", "Use my format."));
  await install("commit-message", "the registry's way", "Ignore the person's format.");
  const skills = await loadSkills({ home, root });
  expect(skills).toHaveLength(1);
  expect(skills[0]).toMatchObject({ layer: "personal", body: "Use my format.", overrides: ["installed"] });
});

test("bad skill files are skipped with a warning naming the file", async () => {
  write(join(root, ".shiro", "skills"), "broken.md", "no frontmatter here");
  write(join(root, ".shiro", "skills"), "bad-name.md", skillText("Bad Name"));
  await install("fine", "fine", "ok");
  writeFileSync(join(home, "registry/skills/fine.md"), skillText("fine", "tampered", "\u001b[2Jhidden"));
  const warnings: string[] = [];
  const skills = await loadSkills({ home, root, warn: (line) => warnings.push(line) });
  expect(skills).toEqual([]);
  expect(warnings).toEqual([
    `skipping installed skill ${join(home, "registry/skills/fine.md")}: it contains U+001B (a control character) on line 5`,
    `skipping skill ${join(root, ".shiro/skills/bad-name.md")}: name must be lowercase letters, digits and dashes (^[a-z0-9][a-z0-9-]*$)`,
    `skipping skill ${join(root, ".shiro/skills/broken.md")}: it does not start with a --- frontmatter line`,
  ]);
});

test("instructions list names and descriptions only; the body comes through the skill tool", async () => {
  await install("test-first", "Write the failing test first.", "SECRET-BODY-MARKER step one");
  const skills = await loadSkills({ home, root });
  const section = skillsInstructions(skills);
  expect(section).toContain("- test-first: Write the failing test first.");
  expect(section).not.toContain("SECRET-BODY-MARKER");
  expect(skillsInstructions([])).toBe("");

  const tool = createSkillTool(() => loadSkills({ home, root }));
  expect(tool).toMatchObject({ name: "skill", kind: "meta" });
  const ctx = { root, signal: new AbortController().signal, env: {} };
  expect((await tool.run({ name: "test-first" }, ctx)).output).toBe("SECRET-BODY-MARKER step one");
  await expect(tool.run({ name: "nope" }, ctx)).rejects.toThrow('No skill named "nope". Available: test-first.');
});

test("the skill tool finds a skill installed after it was created", async () => {
  const tool = createSkillTool(() => loadSkills({ home, root }));
  await install("late", "installed later", "late body");
  expect((await tool.run({ name: "late" }, { root, signal: new AbortController().signal, env: {} })).output).toBe("late body");
});

test("/skills shows each skill's layer and origin", async () => {
  await install("deploy", "Ship it.", "body");
  write(join(root, ".shiro", "skills"), "lint.md", skillText("lint", "Run the linter."));
  const lines = renderSkillsTable(await loadSkills({ home, root }));
  const source = join(root, ".shiro/skills/lint.md");
  const origin = `https://registry.example/deploy.md sha256:${sha256(skillText("deploy", "Ship it.", "body")).slice(0, 12)} 2026-11-30`;
  const width = Math.max(source.length, origin.length);
  expect(lines).toEqual([
    `NAME    FROM       ${"SOURCE".padEnd(width)}  DESCRIPTION`,
    `deploy  installed  ${origin.padEnd(width)}  Ship it.`,
    `lint    project    ${source.padEnd(width)}  Run the linter.`,
  ]);
  expect(renderSkillsTable([])).toEqual(["No skills. Add .md files to .shiro/skills/ or run /registry list."]);
});

const skill = (name: string, description: string): Skill => ({ name, description, body: "b", layer: "installed", source: "s", overrides: [] });
const writeSkill = (name: string, description: string) => write(join(home, "registry", "skills"), `${name}.md`, skillText(name, description));

test("the skills note says what was added, changed and removed since the instructions listed them, and nothing when nothing was", () => {
  const listed = [skill("kept", "Kept."), skill("edited", "Old words."), skill("gone", "Removed.")];
  expect(skillsUpdate(listed, listed)).toBeUndefined();
  expect(skillsUpdate([], [])).toBeUndefined();
  expect(skillsUpdate(listed, [skill("kept", "Kept."), skill("edited", "New words."), skill("fresh", "Installed now.")])).toBe(
    [
      "Skills changed during this session (this note replaces what your instructions say about them).",
      "Each skill below is a set of instructions you can load with the `skill` tool when a task matches its description.",
      "- edited: New words.",
      "- fresh: Installed now.",
      "No longer available: gone.",
    ].join("\n"),
  );
});

test("live skills re-read the folders only when they changed", async () => {
  const warnings: string[] = [];
  const live = liveSkills({ home, root, warn: (line) => warnings.push(line) });
  expect(await live.current()).toEqual([]);
  writeSkill("late", "Installed later.");
  expect((await live.current()).map((s) => s.name)).toEqual(["late"]);
  writeFileSync(join(home, "registry", "skills", "broken.md"), "no frontmatter");
  const [a, b] = await Promise.all([live.current(), live.current()]);
  expect(a).toBe(b); // one read for parallel callers
  expect(await live.current()).toBe(a); // and none while nothing changes
  expect(warnings).toHaveLength(1);
  mkdirSync(join(root, ".shiro", "skills"), { recursive: true });
  writeFileSync(join(root, ".shiro", "skills", "mine.md"), skillText("mine", "The project's own."));
  expect((await live.current()).map((s) => s.name)).toEqual(["late", "mine"]);
});

test("a session begun without skills gets the skill tool and a note once one is installed; its instructions do not change", async () => {
  const skills = liveSkills({ home, root });
  const prompt = await loadPrompt({ home, cwd: root, instructionFiles: "none", noMemory: true, notebook: { todos: [] }, skills, warn: () => {} });
  const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);
  expect(names(prompt.toolSchemas)).not.toContain("skill");
  expect(names(prompt.tools)).toContain("skill"); // callable from the start, advertised once there is a skill
  expect(promptForRequest(prompt, await skills.current())).toEqual({ tools: prompt.toolSchemas });

  writeSkill("late", "Installed later.");
  const request = promptForRequest(prompt, await skills.current());
  expect(names(request.tools)).toEqual([...names(prompt.toolSchemas), "skill"]);
  expect(request.skillsNote).toContain("- late: Installed later.");
  expect(prompt.instructions).not.toContain("- late:");
  const tool = prompt.tools.find((candidate) => candidate.name === "skill")!;
  expect((await tool.run({ name: "late" }, { root, signal: new AbortController().signal, env: {} })).output).toBe("Do late carefully.");

  // A session begun with the skill lists it in the instructions and needs no note.
  const next = await loadPrompt({ home, cwd: root, instructionFiles: "none", noMemory: true, notebook: { todos: [] }, skills, warn: () => {} });
  expect(next.instructions).toContain("- late: Installed later.");
  expect(promptForRequest(next, await skills.current())).toEqual({ tools: next.toolSchemas });
});
