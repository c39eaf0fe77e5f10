/**
 * A project inside a person's home, as issue 18 has it: the home's dotfiles (`.bashrc` exporting a
 * token, `.npmrc`), a sibling project, the parent's own files and `$SHIRO_HOME` with an old session,
 * each holding a distinct marker. What a run may not reach is judged by outcome: a marker in what the
 * model was sent or in a session file shiro wrote, or any of those files changed on disk.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { marker, markedFiles } from "./marked-files.ts";
import { attackLayout, walk, type Layout } from "./attack-layout.ts";

export type ReachLayout = Layout & {
  sibling: string;
  /** Marker → where it lives (base-relative). */
  markers: Map<string, string>;
  /** A file of the project the controls read, and what it says. */
  projectText: string;
};

export const OLD_SESSION = "shiro/sessions/old-session.jsonl";

export function reachLayout(prefix: string): ReachLayout {
  const l = attackLayout(prefix);
  const { markers, put, dotfiles } = markedFiles(l.base);
  dotfiles();
  put("home/notes/todo.md", (m) => `- call ${m}\n`, "leaknotes");
  put("outer/sib/.env", (m) => `API_KEY=${m}\n`, "leaksibenv");
  put("outer/sib/README.md", (m) => `sibling ${m}\n`, "leaksibling");
  put("outer/.env", (m) => `PARENT_KEY=${m}\n`, "leakparentenv");
  put("outer/plan.md", (m) => `parent plan ${m}\n`, "leakparent");
  put(OLD_SESSION, (m) => `${JSON.stringify({ type: "note", text: m })}\n`, "leaksession");
  put("tmp/system-like.txt", () => "a shared file outside the home\n");
  const projectText = `project says ${marker("fine")}\n`;
  put("outer/proj/src/app.ts", () => projectText);
  return { ...l, sibling: join(l.outer, "sib"), markers, projectText };
}

/** Where the markers that were given away turned up: request bodies, or a session or checkpoint file shiro wrote. */
export function leaks(l: ReachLayout, bodies: string[]): string[] {
  const written = (dir: string) =>
    walk(join(l.shiroHome, dir))
      .filter((e) => e.kind === "file" && `shiro/${dir}/${e.rel}` !== OLD_SESSION)
      .map((e) => readFileSync(join(l.shiroHome, dir, e.rel), "latin1"));
  const sessions = written("sessions");
  const checkpoints = written("checkpoints");
  const found: string[] = [];
  for (const [m, rel] of l.markers) {
    if (bodies.some((b) => b.includes(m))) found.push(`${rel} in a request`);
    if (sessions.some((t) => t.includes(m))) found.push(`${rel} in a session file`);
    if (checkpoints.some((t) => t.includes(m))) found.push(`${rel} in a checkpoint file`);
  }
  return found;
}

/** Every file outside the project (tmp, and the sessions and checkpoints shiro writes, aside), base-relative, with its bytes. */
export function outsideFiles(l: Layout): Map<string, string> {
  const skip = (rel: string) => rel === "outer/proj" || rel === "tmp" || rel === "shiro/sessions" || rel === "shiro/checkpoints";
  return new Map(walk(l.base, skip).filter((e) => e.kind !== "dir").map((e) => [e.rel, readFileSync(join(l.base, e.rel), "latin1")]));
}

/** What changed there since `before`: a file changed, removed or new. */
export function changedOutside(l: Layout, before: Map<string, string>): string[] {
  const now = outsideFiles(l);
  const changed = [...before].filter(([rel, content]) => now.get(rel) !== content).map(([rel]) => `changed ${rel}`);
  return [...changed, ...[...now.keys()].filter((rel) => !before.has(rel)).map((rel) => `created ${rel}`)];
}
