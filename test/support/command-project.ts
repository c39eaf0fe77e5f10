import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { git } from "./guard-projects.ts";

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
