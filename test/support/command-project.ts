import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const GIT_ID = ["-c", "user.name=Test", "-c", "user.email=test@example.com"];

/** Runs git in `cwd` as a person would, failing the test on an error. */
export function git(cwd: string, ...args: string[]): string {
  const run = Bun.spawnSync(["git", ...GIT_ID, ...args], { cwd, env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" } });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/** Writes `files` (path under `root` → text), making their folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A project as people have them: a git repository with one commit, a source file, a `.env` beside it. */
export const PROJECT = {
  commit: "Fix the login redirect loop",
  source: "export const redirect = (to: string) => `/login?next=${encodeURIComponent(to)}`;\n",
  envCanary: "sk-live-canary-4f1e9a77",
};

export function makeProject(root: string): void {
  writeFiles(root, {
    "src/login.ts": PROJECT.source,
    ".gitignore": ".env\n",
    ".env": `STRIPE_KEY=${PROJECT.envCanary}\n`,
  });
  git(root, "init", "-q");
  git(root, "add", ".");
  git(root, "commit", "-qm", PROJECT.commit);
}

/** The text of the last user message of a request body. */
export const lastUserText = (body: any): string => {
  const message = body.input.findLast((item: any) => item.type === "message" && item.role === "user");
  return message.content.map((part: any) => part.text ?? "").join("");
};
