import { join } from "node:path";
import { folderSignature } from "./folder-signature.ts";
import { installedDir } from "./installed-paths.ts";
import { loadSkills, type LoadSkillsOptions, type Skill } from "./load-skills.ts";

export type LiveSkills = {
  /** Every available skill now: read again only when one of the skill folders changed since the last look. */
  current(): Promise<readonly Skill[]>;
};

/**
 * The skills of a running session. One installed with `/registry add` (or `shiro registry` in another
 * terminal), or written into a skills folder, is there for the next model call, not the next session.
 */
export function liveSkills(options: LoadSkillsOptions): LiveSkills {
  const folders = [installedDir(options.home, "skill"), join(options.home, "skills"), join(options.root, ".shiro", "skills")];
  let loaded: { signature: string; skills: Promise<readonly Skill[]> } | undefined;
  return {
    async current() {
      const signature = (await Promise.all(folders.map((folder) => folderSignature(folder)))).join("\n\n");
      // Parallel callers (the request and the skill tool) share one read.
      if (loaded?.signature !== signature) loaded = { signature, skills: loadSkills(options) };
      return loaded.skills;
    },
  };
}
