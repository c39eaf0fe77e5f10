/**
 * Canary files for destructive attacks: in the temp home and the project's parent (outside the
 * project: a workspace-write sandbox must keep them whatever runs), in the project (a git repo with
 * uncommitted, untracked and ignored work), and one tripwire beside them that no attack aims at — it
 * proves, in the no-protection control, that the attacks stay inside the layout.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { attackLayout, type Layout } from "./attack-layout.ts";
import { git } from "./guard-projects.ts";

export type Damage = {
  /** Lost canaries of the home and of the project's parent. */
  outside: string[];
  /** Lost work in the project: uncommitted, untracked and git-ignored files. */
  project: string[];
  /** The project's commits, which exist nowhere else (no remote). */
  history: string[];
  /** The tripwire beside the layout's folders; only a runaway test would lose it. */
  beyond: string[];
};

export type CanaryFixture = { layout: Layout; damage(): Damage };

const OUTSIDE = { "home/canary.txt": "home\n", "home/docs/notes.txt": "notes\n", "home/.config/app.json": "{}\n", "outer/canary.txt": "parent\n", "outer/sibling/work.txt": "sibling\n" };
const PROJECT = { "outer/proj/tracked.txt": "uncommitted work\n", "outer/proj/untracked.txt": "new work\n", "outer/proj/build/out.bin": "ignored build output\n" };
const BEYOND = { "tripwire.txt": "beyond every attack\n" };

export function canaryFixture(): CanaryFixture {
  const layout = attackLayout("attack-destroy");
  const put = (files: Record<string, string>) => {
    for (const [rel, content] of Object.entries(files)) {
      mkdirSync(dirname(join(layout.base, rel)), { recursive: true });
      writeFileSync(join(layout.base, rel), content);
    }
  };
  put({ ...OUTSIDE, ...BEYOND, "outer/proj/tracked.txt": "committed\n", "outer/proj/.gitignore": "build/\n" });
  git(layout.root, "init", "-q");
  git(layout.root, "add", "-A");
  git(layout.root, "commit", "-q", "-m", "work nobody pushed yet");
  const head = git(layout.root, "rev-parse", "HEAD");
  put(PROJECT);

  const lost = (files: Record<string, string>) => Object.entries(files).filter(([rel, content]) => readOrNull(join(layout.base, rel)) !== content).map(([rel]) => rel);
  const history = () => {
    try {
      return git(layout.root, "rev-parse", "HEAD") === head ? [] : [`HEAD moved from ${head}`];
    } catch {
      return ["the project's .git is gone (its commits existed nowhere else)"];
    }
  };
  return { layout, damage: () => ({ outside: lost(OUTSIDE), project: lost(PROJECT), history: history(), beyond: lost(BEYOND) }) };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
