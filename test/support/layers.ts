/**
 * The layer order of src/, as docs/architecture.md draws it in its floors table: each folder (or
 * top-level file) on a floor, lowest first. A file may import its own folder and any folder on a
 * LOWER floor — never one on its own floor or above. Type-only imports count: a cycle of types is
 * still a cycle.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The floors of the table `| n | \`room/\` … | what |` in the architecture doc, lowest first. */
export function floorsOf(doc: string): string[][] {
  const floors: string[][] = [];
  for (const m of doc.matchAll(/^\|\s*(\d+)\s*\|([^|]*)\|/gm)) floors[Number(m[1])] = [...m[2]!.matchAll(/`([^`]+)`/g)].map((r) => r[1]!.replace(/\/$/, ""));
  return floors;
}

export const ARCHITECTURE = join(import.meta.dir, "..", "..", "docs", "architecture.md");
export const FLOORS: readonly (readonly string[])[] = floorsOf(readFileSync(ARCHITECTURE, "utf8"));

export type Import = { file: string; line: number; target: string };

// `import … from`, `export … from`, `import "…"` and `import("…")`, type-only ones too.
const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

/** Every relative import of every .ts file under `src`, with the file it resolves to (both relative to `src`). */
export function importsOf(src: string): Import[] {
  const out: Import[] = [];
  for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts")) continue;
    const text = readFileSync(join(src, file), "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      if (!spec.startsWith(".")) continue;
      const line = text.slice(0, m.index).split("\n").length + (m[0].match(/^\s*/)![0].split("\n").length - 1);
      out.push({ file, line, target: relative(src, resolve(dirname(join(src, file)), spec)) });
    }
  }
  return out;
}

/** The room a path is in: its first folder, or the file itself at the top. */
export const roomOf = (path: string): string => (path.includes("/") ? path.split("/")[0]! : path);

/** What is wrong with the imports, one line each naming the file, the line and the rule broken. */
export function layerViolations(imports: readonly Import[], floors: readonly (readonly string[])[] = FLOORS): string[] {
  const floorOf = new Map(floors.flatMap((rooms, floor) => rooms.map((room) => [room, floor] as const)));
  const problems: string[] = [];
  for (const { file, line, target } of imports) {
    const from = roomOf(file);
    const to = roomOf(target);
    if (from === to) continue;
    const a = floorOf.get(from);
    const b = floorOf.get(to);
    if (a === undefined) problems.push(`src/${file}: ${from}/ is on no floor (give it a row in the floors of docs/architecture.md)`);
    else if (b === undefined) problems.push(`src/${file}:${line} imports src/${target}, which is on no floor`);
    else if (b >= a)
      problems.push(`src/${file}:${line} imports src/${target}: ${from}/ (floor ${a}) may import only lower floors, and ${to}/ is on floor ${b}${a === b ? " (the same floor: rooms on one floor stay apart)" : ""}`);
  }
  return [...new Set(problems)];
}

/** Import cycles between files, each as the files around it. */
export function fileCycles(imports: readonly Import[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { file, target } of imports) (next.get(file) ?? next.set(file, new Set()).get(file)!).add(target);
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === "open") cycles.push(path.slice(path.indexOf(to)));
      else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of [...next.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}
