import { mkdirSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { isInside } from "../files/project-paths.ts";

/**
 * The person's home (hidden), the command's own in its place, the tool folders in it that stay shown
 * (linked into the private one), and the places in it the command reaches where they really are (the
 * project, the added folders).
 */
export type PrivateHome = { real: string; private: string; shown: string[]; kept: string[] };

/**
 * Under Landlock the home cannot be shown empty as bubblewrap shows it: it is refused, and git, npm
 * and the rest stumble on a refused `~/.gitconfig` or `~/.npm`. So a command gets a home of its own,
 * empty but for links to the tool folders (`~/.cargo/bin`, `~/.rustup`…) where they really are, and
 * gone when it ends. Returns the links it made, which are no file of the command's.
 */
export function makePrivateHome(home: PrivateHome): string[] {
  mkdirSync(home.private, { recursive: true, mode: 0o700 });
  return home.shown.flatMap((dir) => {
    const link = join(home.private, relative(home.real, dir));
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(dir, link);
    return [link];
  });
}

/**
 * The environment with the home replaced: HOME, and every value naming a place in the hidden home
 * (`XDG_CONFIG_HOME`, `CARGO_HOME`) moved to the same place in the private one — but for values in a
 * shown tool folder, and lists such as PATH, which keep pointing where the tools are, and values in the
 * project or an added folder (a hook's `SHIRO_PROJECT_DIR`), which the command reaches where they are.
 */
export function privateHomeEnv(env: Readonly<Record<string, string>>, home: PrivateHome): Record<string, string> {
  const out: Record<string, string> = { ...env, HOME: home.private };
  for (const [name, value] of Object.entries(env)) {
    if (name === "HOME" || !value.startsWith("/") || value.includes(":") || !isInside(value, home.real)) continue;
    if ([...home.shown, ...home.kept].some((dir) => isInside(value, dir))) continue;
    out[name] = join(home.private, relative(home.real, value));
  }
  return out;
}
