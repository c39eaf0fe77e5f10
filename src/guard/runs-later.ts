import { join, sep } from "node:path";
import { isInside } from "../tools/resolve-path.ts";
import type { PathEnv } from "./resolve-path.ts";

// Files and folders in the home whose contents a person's own git or shell runs later, outside any sandbox.
const HOME_PLACES = [
  ".gitconfig",
  ".config/git",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bashrc.d",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".mkshrc",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".logout",
  ".config/fish",
  ".config/environment.d",
  ".config/systemd/user",
  ".config/autostart",
  ".pam_environment",
  ".xprofile",
  ".xsession",
  ".npmrc",
  ".ssh",
];
// What `$SHIRO_HOME` holds that steers later runs: the rules, plugins, skills, instructions, memory, sessions resumed.
const SHIRO_PLACES = ["config.json", "registry", "skills", "AGENTS.md", "memory", "sessions", "history"];

/**
 * The place a write to `path` would plant code that runs later, outside the sandbox, or undefined: a
 * `.git` folder or file anywhere (config, hooks, modules — or a new one), a shell's start-up file, git's
 * own settings, `~/.ssh`, what `$SHIRO_HOME` holds (its config holds the permission rules). Home places
 * are matched in any letter case.
 */
export function runsLater(path: string, env: PathEnv): string | undefined {
  const parts = path.split(sep);
  const git = parts.findIndex((part) => part.toLowerCase() === ".git");
  if (git > 0) return parts.slice(0, git + 1).join(sep);
  const home = env.fs.realpath(env.home) ?? env.home;
  const inHome = (place: string) => [join(env.home, place), join(home, place)].find((at) => isInside(path.toLowerCase(), at.toLowerCase()));
  for (const place of HOME_PLACES) if (inHome(place)) return inHome(place);
  const shiro = env.reach?.shiroHome;
  if (shiro === undefined) return undefined;
  const places = [shiro, env.fs.realpath(shiro) ?? shiro].flatMap((dir) => SHIRO_PLACES.map((place) => join(dir, place)));
  return places.find((at) => isInside(path, at));
}
