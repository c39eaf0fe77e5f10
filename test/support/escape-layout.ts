/**
 * Issue 18's "no way out" layout: a person's home full of dotfiles and the project at ~/code/proj.
 *
 *   base/home                 HOME: `.bashrc` exporting a marker token, `.npmrc` with one
 *   base/home/code/.env       the project's parent's own secret
 *   base/home/code/sib/.env   a sibling project's secret
 *   base/home/code/proj       the project (README, a `.env` the sandbox masks)
 *   base/shiro                SHIRO_HOME (sessions the markers must never reach)
 *
 * `escapeRun` drives `shiro -p` with a scripted model issuing one bash call a turn and keeps what the
 * model was sent (every request body), each call's output and shiro's exit, so a test judges outcomes.
 * Unlike attack-run's PROBE, nothing here expects the home to be readable: the home is hidden now.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { marker, markedFiles } from "./marked-files.ts";
import { assertDisposable, attackLayout, layoutEnv, walk, type Layout } from "./attack-layout.ts";
import { runShiro, type ShiroRun } from "./run-shiro.ts";
import { FINAL } from "./scripted-job.ts";
import { sequenceModel, visibleOutputs, type PlannedCall } from "./scripts.ts";
import { startStrictServer } from "./strict-server.ts";
import { toolHere } from "./tool-here.ts";

export type EscapeLayout = Layout & {
  /** base/home/code: the project's parent. */
  code: string;
  sibling: string;
  /** Marker → base-relative file it lives in. */
  markers: Map<string, string>;
  /** The project's README text (the control reads it). */
  readme: string;
  /** The project's `.env` (masked inside the sandbox), and its marker. */
  projectEnv: string;
  projectEnvMarker: string;
};

// (Evaluated once a run: in CI the first file that imports this gets the failing test.)
export const bwrapAbsent = !toolHere("bwrap", existsSync("/usr/bin/bwrap"));
export const isRoot = process.getuid?.() === 0;


export function escapeLayout(prefix: string): EscapeLayout {
  const l = attackLayout(prefix);
  const code = join(l.home, "code");
  const root = join(code, "proj");
  mkdirSync(root, { recursive: true });
  const { markers, put, dotfiles } = markedFiles(l.base);
  dotfiles();
  put("home/code/.env", (m) => `PARENT_KEY=${m}\n`, "leakparentenv");
  put("home/code/sib/.env", (m) => `API_KEY=${m}\n`, "leaksibenv");
  put("home/code/sib/README.md", (m) => `sibling ${m}\n`, "leaksibling");
  put("home/code/proj/.env", (m) => `PROJECT_KEY=${m}\n`, "leakprojenv");
  const readme = `project says ${marker("fine")}\n`;
  put("home/code/proj/README", () => readme);
  const projectEnvMarker = [...markers].find(([, rel]) => rel === "home/code/proj/.env")![0];
  const layout: EscapeLayout = { ...l, outer: code, root, code, sibling: join(code, "sib"), markers, readme, projectEnv: join(root, ".env"), projectEnvMarker };
  assertDisposable(pathsOf(layout));
  return layout;
}

/** The layout's folders alone, for attack-layout's check that each lies in the run's temp folder. */
export const pathsOf = (l: EscapeLayout): Layout => ({ base: l.base, home: l.home, outer: l.code, root: l.root, tmp: l.tmp, shiroHome: l.shiroHome });

export const bash = (command: string, timeout_ms = 15_000): PlannedCall => ({ name: "bash", arguments: { command, timeout_ms } });

export type EscapeRun = ShiroRun & { bodies: string[]; outputs: string[] };

/** `shiro -p <args> do the job` in the project, the model issuing `commands` one a turn. */
export async function escapeRun(
  l: EscapeLayout,
  commands: (string | PlannedCall)[],
  opts: { args?: string[]; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<EscapeRun> {
  assertDisposable(pathsOf(l));
  const calls = commands.map((c) => (typeof c === "string" ? bash(c) : c));
  const server = await startStrictServer({ defaultModel: sequenceModel(calls, FINAL) });
  try {
    const run = await runShiro(["-p", ...(opts.args ?? []), "--max-steps", String(calls.length + 5), "do the job"], {
      cwd: l.root,
      home: l.home,
      env: { OPENAI_BASE_URL: server.url, ...layoutEnv(l), ...opts.env },
      timeoutMs: opts.timeoutMs ?? 25_000,
    });
    const bodies = server.requests.map((r) => r.raw);
    const last = server.requests.at(-1)?.body?.input ?? [];
    const outputs = visibleOutputs(last).map((o) => o.output);
    return { ...run, bodies, outputs };
  } finally {
    await server.stop();
  }
}

/** Where a marker turned up: a request body, shiro's stdout, or a session file shiro wrote. */
export function leaks(l: EscapeLayout, run: EscapeRun, only?: (rel: string) => boolean): string[] {
  const sessions = join(l.shiroHome, "sessions");
  const written = walk(sessions)
    .filter((e) => e.kind === "file")
    .map((e) => readFileSync(join(sessions, e.rel), "latin1"));
  const found: string[] = [];
  for (const [m, rel] of l.markers) {
    if (only && !only(rel)) continue;
    if (run.bodies.some((b) => b.includes(m))) found.push(`${rel} in a request`);
    if (run.stdout.includes(m)) found.push(`${rel} on stdout`);
    if (written.some((t) => t.includes(m))) found.push(`${rel} in a session file`);
  }
  return found;
}

/** Every file outside the project (tmp and shiro's own home aside), base-relative, with its bytes. */
export function outsideFiles(l: Pick<EscapeLayout, "base">): Map<string, string> {
  const skip = (rel: string) => rel === "home/code/proj" || rel === "tmp" || rel === "shiro";
  return new Map(
    walk(l.base, skip)
      .filter((e) => e.kind !== "dir")
      .map((e) => [e.rel, e.kind === "link" ? `link` : readFileSync(join(l.base, e.rel), "latin1")]),
  );
}

/** What changed outside the project since `before`: changed, removed or new files. */
export function changedOutside(l: Pick<EscapeLayout, "base">, before: Map<string, string>): string[] {
  const now = outsideFiles(l);
  const changed = [...before].filter(([rel, content]) => now.get(rel) !== content).map(([rel]) => `changed ${rel}`);
  return [...changed, ...[...now.keys()].filter((rel) => !before.has(rel)).map((rel) => `created ${rel}`)];
}

export const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
