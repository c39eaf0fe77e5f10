import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { MatchList } from "./match-list.ts";
import { displayPath, relativePosix } from "../../files/project-paths.ts";
import type { SearchScope } from "./search-scope.ts";
import { secretTest, type SecretTest } from "./secret-test.ts";

export type RipgrepRun = {
  rg: string;
  scope: SearchScope;
  /** rustRegex's widening of `regex`: what rg looks for; every line it reports is tested with `regex` again. */
  rust: string;
  regex: RegExp;
  secretGlobs: readonly string[];
  env: Readonly<Record<string, string>>;
  signal: AbortSignal;
  matches: MatchList;
};

/**
 * `refused`: secret files left unopened, and files whose matches may not be shown. `unusable`: rg could
 * not run this search — the pattern or glob (`broken: false`), or rg itself (too old, not ripgrep).
 */
export type RipgrepOutcome = { refused: number } | { unusable: string; broken: boolean };

const PATTERN_REFUSED = /regex parse error|error parsing glob|is not allowed in a regex/;
const FLAGS_REFUSED = /Found argument|unrecognized|unexpected argument|invalid value/i;

/**
 * A folder search by ripgrep that behaves as the walk does: .gitignore files of the root and below (not
 * above it, not the global or .ignore ones), hidden files, no .git/, links not followed, secrets never
 * opened. Beside it a second rg lists the secret files alone, so the result can say how many were left out.
 */
export async function ripgrepSearch(run: RipgrepRun): Promise<RipgrepOutcome> {
  const { scope } = run;
  const { target, globArgs } = placement(scope);
  const common = [
    "--no-config", "--no-require-git", "--no-ignore-parent", "--no-ignore-global", "--no-ignore-dot", "--no-ignore-exclude",
    "--hidden", "--null", "--color", "never", ...ancestorIgnoreFiles(scope).flatMap((file) => ["--ignore-file", file]),
  ];
  const exclude = secretGlobArgs(run.secretGlobs, "exclude");
  const only = secretGlobArgs(run.secretGlobs, "list");
  const search = [...common, "--line-number", "--with-filename", "--no-heading", ...globArgs, "-g", "!.git", ...exclude, "-e", run.rust, "--", target];
  let searching, listing;
  try {
    searching = spawn(search, run, "pipe");
    listing = only.length ? spawn([...common, "--files", ...only, "-g", "!.git", "--", target], run, "ignore") : undefined;
  } catch (err) {
    return { unusable: (err as Error).message, broken: true };
  }
  // Both streams of both processes are read as they come: a full pipe would stall rg.
  const complaints = new Response(searching.stderr).text();
  const leftOut = listing ? countSecrets(listing, scope, run.secretGlobs) : Promise.resolve(0);

  // Each file is judged once, at its first match: whether grep searches it at all, and whether it may be shown.
  const files = new Map<string, { shown?: string }>();
  let refused = 0;
  const decoder = new TextDecoder();
  const binary: string[] = [];
  const onMessage = (line: Uint8Array) => {
    const warned = /^(.*): WARNING: stopped searching binary file/.exec(decoder.decode(line));
    if (warned) binary.push(warned[1]!);
  };
  await records(searching.stdout, true, (pathBytes, rest) => {
    const path = decoder.decode(pathBytes);
    let file = files.get(path);
    if (!file) {
      const abs = resolve(scope.ignoreRoot, path);
      const wanted = scope.wanted(abs);
      file = wanted && scope.mayShow(abs) ? { shown: displayPath(scope.root, abs) } : {};
      if (wanted && !file.shown) refused++;
      files.set(path, file);
    }
    if (file.shown === undefined) return;
    const colon = rest.indexOf(0x3a);
    const text = decoder.decode(rest.subarray(colon + 1));
    if (run.regex.test(text)) run.matches.add(file.shown, Number(decoder.decode(rest.subarray(0, colon))), text);
  }, onMessage);
  const [code, stderr] = await Promise.all([searching.exited, complaints]);
  if (code === 2 && files.size === 0 && (PATTERN_REFUSED.test(stderr) || FLAGS_REFUSED.test(stderr))) {
    listing?.kill();
    await leftOut;
    return { unusable: stderr.trim().split("\n")[0]!, broken: !PATTERN_REFUSED.test(stderr) };
  }
  // rg stops at a NUL byte; one found after matching lines makes the file binary after all.
  for (const path of binary) {
    const shown = files.get(path)?.shown;
    if (shown) run.matches.drop(shown);
  }
  return { refused: refused + (await leftOut) };
}

/** The secret files rg listed that grep would otherwise have searched, a secret folder counted once however many files it holds (as the walk counts them). */
async function countSecrets(listing: Bun.Subprocess<"ignore", "pipe", "ignore">, scope: SearchScope, globs: readonly string[]): Promise<number> {
  const secret = secretTest(globs);
  const decoder = new TextDecoder();
  const left = new Set<string>();
  await records(listing.stdout, false, (pathBytes) => {
    const abs = resolve(scope.ignoreRoot, decoder.decode(pathBytes));
    if (scope.wanted(abs)) left.add(outermostSecret(scope, abs, secret));
  });
  await listing.exited;
  return left.size;
}

/**
 * The secret globs as rg flags, in any letter case: to exclude them (`!`), or to list them, which also
 * takes what lies in a folder so named (rg would list no file there). Those matched by name go as one
 * `{a,b,…}` glob: rg then tests a path once, not once per glob (a 100,000-file search: 45 ms, not 105).
 */
export function secretGlobArgs(globs: readonly string[], use: "exclude" | "list"): string[] {
  const names = globs.filter((g) => !g.includes("/")).join(",");
  const paths = globs.filter((g) => g.includes("/"));
  // Listing, a glob that names a folder stands for everything in it too.
  const within = use === "list" ? [...(names ? [`**/{${names}}/**`] : []), ...paths.map((p) => `${p}/**`)] : [];
  const all = [...(names ? [`{${names}}`] : []), ...paths, ...within];
  return all.flatMap((glob) => ["--iglob", use === "exclude" ? `!${glob}` : glob]);
}

/** The first folder below the one searched that a secret glob names, or else the file itself. */
function outermostSecret(scope: SearchScope, abs: string, secret: SecretTest): string {
  const parts = relativePosix(scope.dir, abs).split("/");
  for (let i = 1; i < parts.length; i++) {
    const folder = join(scope.dir, ...parts.slice(0, i));
    if (secret(parts[i - 1]!, relativePosix(scope.root, folder))) return folder;
  }
  return abs;
}

/** What rg is pointed at, from the ignore root it runs in (so its globs anchor there), and grep's glob as rg reads it. */
function placement(scope: SearchScope) {
  const target = relativePosix(scope.ignoreRoot, scope.dir) || ".";
  if (scope.glob === undefined) return { target, globArgs: [] };
  // A glob with "/" is relative to the folder searched; rg anchors it at its working folder.
  const prefix = scope.glob.includes("/") && target !== "." ? `${target.replace(/[\\*?[\]{}!]/g, "\\$&")}/` : "";
  return { target, globArgs: ["-g", prefix + scope.glob] };
}

/**
 * The .gitignore files of the folders from the ignore root down to the one above `dir`, which rg does
 * not read for a search of `dir` (it reads those at and below it). Their patterns anchor at the root,
 * so one anchored in a middle folder may let rg search too much, never too little: every file rg
 * reports is checked against the real rules again.
 */
function ancestorIgnoreFiles(scope: SearchScope): string[] {
  if (scope.dir === scope.ignoreRoot) return [];
  const parts = relativePosix(scope.ignoreRoot, dirname(scope.dir)).split("/").filter((p) => p !== "" && p !== ".");
  return [scope.ignoreRoot, ...parts.map((_, i) => join(scope.ignoreRoot, ...parts.slice(0, i + 1)))].map((dir) => join(dir, ".gitignore")).filter((file) => existsSync(file));
}

function spawn<E extends "pipe" | "ignore">(args: string[], run: RipgrepRun, stderr: E) {
  const proc = Bun.spawn([run.rg, ...args], { cwd: run.scope.ignoreRoot, env: { ...run.env }, stdin: "ignore", stdout: "pipe", stderr });
  const stop = () => proc.kill();
  run.signal.addEventListener("abort", stop, { once: true });
  void proc.exited.then(() => run.signal.removeEventListener("abort", stop));
  return proc;
}

/**
 * Splits rg's `--null` output into records: a path up to its NUL, then for a search `line:text` up to
 * the newline. A line without a NUL is a message rg writes among them (a binary file's warning). Bytes
 * stay bytes until a record is whole, so a chunk may end anywhere.
 */
async function records(stream: ReadableStream<Uint8Array>, withText: boolean, onRecord: (path: Uint8Array, rest: Uint8Array) => void, onMessage?: (line: Uint8Array) => void): Promise<void> {
  let pending: Uint8Array = new Uint8Array(0);
  for await (const chunk of stream) {
    const bytes = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    while (at < bytes.length) {
      const nul = bytes.indexOf(0, at);
      const newline = withText ? bytes.indexOf(0x0a, at) : -1;
      if (newline !== -1 && (nul === -1 || newline < nul)) {
        onMessage?.(bytes.subarray(at, newline));
        at = newline + 1;
        continue;
      }
      const end = nul === -1 ? -1 : withText ? bytes.indexOf(0x0a, nul) : nul;
      if (end === -1) break;
      onRecord(bytes.subarray(at, nul), bytes.subarray(nul + 1, end));
      at = end + 1;
    }
    pending = bytes.subarray(at);
  }
}
