import { join, sep } from "node:path";
import { isInside } from "../files/project-paths.ts";
import { configuredHooks } from "./git-config.ts";
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
/**
 * What a project keeps that runs as the person later: `.shiro/` (its hooks' settings and the scripts
 * they call, its saved commands), `.mcp.json` (its MCP servers) and Claude Code's `.claude/` (the same,
 * as that tool keeps them). Approved by hash or not, a script there runs on the person's behalf (an MCP
 * server, a hook the person let out of the sandbox), so neither a file tool nor a sandboxed command may
 * write them — nor make them where they are missing.
 */
export const PROJECT_CODE = [".shiro", ".mcp.json", ".claude"];

// What `$SHIRO_HOME` holds that steers later runs: the rules and hooks, plugins, skills, instructions, memory, sessions
// resumed, the person's saved commands, and what they approved a project may run (approvals.json).
const SHIRO_PLACES = ["config.json", "registry", "skills", "AGENTS.md", "memory", "sessions", "history", "commands", "approvals.json"];

/**
 * The place a write to `path` would plant code that runs later, outside the sandbox, or undefined: a
 * `.git` folder or file anywhere (config, hooks, modules — or a new one), a `.shiro` folder or
 * `.mcp.json` anywhere (PROJECT_CODE), a file the hooks or MCP servers in force run (`reach.programs`),
 * the folder the project's `core.hooksPath` names, a shell's start-up file, git's
 * own settings, `~/.ssh`, what `$SHIRO_HOME` holds (its config holds the permission rules). Home places
 * are matched in any letter case.
 */
export function runsLater(path: string, env: PathEnv): string | undefined {
  const parts = path.split(sep);
  const git = parts.findIndex((part) => part.toLowerCase() === ".git");
  if (git > 0) return parts.slice(0, git + 1).join(sep);
  const code = parts.findIndex((part) => PROJECT_CODE.includes(part.toLowerCase()));
  if (code > 0) return parts.slice(0, code + 1).join(sep);
  // The project's own, where a link leads them elsewhere in it (`.shiro` → `tools/shiro`): written there, they change too.
  const linked = PROJECT_CODE.map((name) => env.fs.realpath(join(env.root, name))).find((real) => real !== undefined && isInside(path, real));
  if (linked !== undefined) return linked;
  // A script a hook or an MCP server runs (`./scripts/fmt.sh`): rewritten, it would run unconfined next time it fires.
  const program = env.reach?.programs?.().find((file) => file === path);
  if (program !== undefined) return program;
  // The project's own hooks folder, when its git config names one (husky's `.husky`): as good as .git/hooks.
  const hooks = configuredHooks(join(env.fs.realpath(env.root) ?? env.root, ".git"));
  if (hooks !== undefined && isInside(path, hooks)) return hooks;
  const lower = path.toLowerCase();
  // Paths here are absolute and normalised: a prefix up to a separator is the same test as isInside, far cheaper.
  const home = homePlaces(env.home, env.fs.realpath(env.home) ?? env.home).find((place) => lower === place.lower || lower.startsWith(place.lower + sep));
  if (home) return home.shown;
  const shiro = env.reach?.shiroHome;
  if (shiro === undefined) return undefined;
  const places = [shiro, env.fs.realpath(shiro) ?? shiro].flatMap((dir) => SHIRO_PLACES.map((place) => join(dir, place)));
  return places.find((at) => isInside(path, at));
}

// Every write a call makes is judged against each place: joined and lower-cased once per home, not per path.
const byHome = new Map<string, { lower: string; shown: string }[]>();
function homePlaces(home: string, realHome: string): { lower: string; shown: string }[] {
  const key = `${home}\0${realHome}`;
  let places = byHome.get(key);
  if (!places) {
    places = HOME_PLACES.flatMap((place) => [home, realHome].map((dir) => ({ lower: join(dir, place).toLowerCase(), shown: join(dir, place) })));
    byHome.set(key, places);
  }
  return places;
}
