import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPrompt } from "../../src/cli/load-prompt.ts";
import { promptForRequest } from "../../src/cli/prompt-for-request.ts";
import { liveSkills } from "../../src/registry/live-skills.ts";
import type { Skill } from "../../src/registry/load-skills.ts";
import { skillsUpdate } from "../../src/registry/skills-update.ts";
import { removeDir, skillText, tempHome } from "../support/registry-fixture.ts";

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

const skill = (name: string, description: string): Skill => ({ name, description, body: "b", layer: "installed", source: "s", overrides: [] });
const writeSkill = (name: string, description: string) => {
  mkdirSync(join(home, "registry", "skills"), { recursive: true });
  writeFileSync(join(home, "registry", "skills", `${name}.md`), skillText(name, description));
};

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
  const prompt = await loadPrompt({ home, cwd: root, noInstructions: true, noMemory: true, notebook: { todos: [] }, skills, warn: () => {} });
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
  const next = await loadPrompt({ home, cwd: root, noInstructions: true, noMemory: true, notebook: { todos: [] }, skills, warn: () => {} });
  expect(next.instructions).toContain("- late: Installed later.");
  expect(promptForRequest(next, await skills.current())).toEqual({ tools: next.toolSchemas });
});
