import { findTrusted } from "../process/trusted-program.ts";

const NAMES = { "user.name": ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"], "user.email": ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] } as const;

/**
 * The person's git identity as variables for a command: inside the sandbox the home, and the
 * `.gitconfig` in it, are hidden, so a commit would have no author. Read once from their own global
 * config (reading runs nothing it names); a variable already set in the environment is left to pass as it is.
 */
export function gitIdentity(home: string, env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const git = findTrusted("git");
  if (!git.ok) return {};
  const read = Bun.spawnSync([git.program.path, "config", "--global", "--get-regexp", "^user\\.(name|email)$"], {
    env: { HOME: home, PATH: "/usr/bin:/bin" },
    stdout: "pipe",
    stderr: "ignore",
  });
  const out: Record<string, string> = {};
  for (const line of read.stdout.toString().split("\n")) {
    const space = line.indexOf(" ");
    const key = line.slice(0, space) as keyof typeof NAMES;
    if (space < 0 || !(key in NAMES)) continue;
    for (const name of NAMES[key]) if (env[name] === undefined) out[name] = line.slice(space + 1);
  }
  return out;
}
