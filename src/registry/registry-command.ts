import { alignColumns } from "../text/align-columns.ts";
import { didYouMean } from "../text/nearest.ts";
import type { FetchOptions } from "./bounded-fetch.ts";
import { nameProblem } from "./check-name.ts";
import { fetchIndex } from "./fetch-index.ts";
import type { IndexItem, RegistryIndex } from "./index-schema.ts";
import { commitInstall, prepareInstall } from "./install.ts";
import { listInstalled } from "./list-installed.ts";
import { LIST_HEADER, listRows } from "./list-rows.ts";
import { parseEntrySpec, pickKind, type EntrySpec } from "./entry-spec.ts";
import { renderPreview } from "./preview.ts";
import { RegistryRefusal, entryLabel, type RegistryKind } from "./refusal.ts";
import { isInstalled, removeInstalled } from "./remove.ts";

export type RegistryIo = {
  /** How the person runs it here (`shiro registry`, `/registry`): hints name the whole command. */
  command: string;
  out(line: string): void;
  err(line: string): void;
  /** Asks yes/no after the preview; absent when nobody can answer (scripts), so `add` then needs `--yes`. */
  confirm?(text: string): Promise<boolean>;
  home: string;
  registryUrl: string;
  /** The terminal's width: tables are clipped to it (absent for a pipe: whole). */
  columns?: number;
  fetchOptions?: FetchOptions;
};

const usage = (io: RegistryIo) => `usage: ${io.command} [list | search <query> | add <name> [--yes] | remove <name> | installed]  (name may be skill:<name> or plugin:<name>)`;

const KINDS: RegistryKind[] = ["skill", "plugin"];
const VERBS = ["list", "search", "add", "remove", "installed", "help"];

/** `shiro registry …` and `/registry …`. Exit code: 0 done, 1 refused or failed, 2 usage. */
export async function registryCommand(argv: string[], io: RegistryIo): Promise<number> {
  const yes = argv.includes("--yes") || argv.includes("-y");
  const [verb = "list", ...rest] = argv.filter((arg) => arg !== "--yes" && arg !== "-y");
  try {
    if (verb === "list" && rest.length === 0) return await list(io, "");
    if (verb === "search" && rest.length > 0) return await list(io, rest.join(" "));
    if (verb === "installed" && rest.length === 0) return await installed(io);
    if (verb === "add" && rest.length === 1) return await add(io, rest[0]!, yes);
    if (verb === "remove" && rest.length === 1) return await remove(io, rest[0]!);
    if (verb === "help" || verb === "--help" || verb === "-h") {
      io.out(usage(io));
      return 0;
    }
    io.err(VERBS.includes(verb) ? usage(io) : `unknown registry command ${JSON.stringify(verb)}${didYouMean(verb, VERBS)} (${usage(io)})`);
    return 2;
  } catch (err) {
    if (err instanceof RegistryUsageError) {
      io.err(err.message);
      return 2;
    }
    io.err(err instanceof RegistryRefusal ? err.message : `registry ${verb} failed: ${(err as Error).message}`);
    return 1;
  }
}

const widthOf = (io: RegistryIo) => (io.columns === undefined ? {} : { width: io.columns - 1 });

/** A malformed entry name on the command line: exit 2. Its own class: the registry does not depend on the CLI. */
class RegistryUsageError extends Error {}

async function list(io: RegistryIo, query: string): Promise<number> {
  const index = await fetchIndex(io.registryUrl, io.fetchOptions);
  const installed = [...(await listInstalled(io.home, "skill", io.err)), ...(await listInstalled(io.home, "plugin", io.err))];
  const rows = listRows(index, installed, query);
  if (rows.length === 0) {
    io.out(query ? `Nothing in the registry matches ${JSON.stringify(query)}.` : "The registry is empty.");
    return 0;
  }
  for (const line of alignColumns([LIST_HEADER, ...rows], widthOf(io))) io.out(line);
  return 0;
}

async function installed(io: RegistryIo): Promise<number> {
  const rows: string[][] = [];
  for (const kind of KINDS) {
    for (const item of await listInstalled(io.home, kind, io.err)) {
      const origin = item.origin;
      rows.push([kind, item.name, origin?.installedAt.slice(0, 10) ?? "-", origin?.entryUrl ?? "origin not recorded", item.description]);
    }
  }
  if (rows.length === 0) {
    io.out(`Nothing installed from a registry. Try: ${io.command} list`);
    return 0;
  }
  for (const line of alignColumns([["KIND", "NAME", "INSTALLED", "FROM", "DESCRIPTION"], ...rows], widthOf(io))) io.out(line);
  return 0;
}

async function add(io: RegistryIo, specText: string, yes: boolean): Promise<number> {
  const spec = checkedSpec(specText);
  const index = await fetchIndex(io.registryUrl, io.fetchOptions);
  const named = (kind: RegistryKind) => itemsOf(index, kind).find((item) => (item.ok ? item.entry.name : item.name) === spec.name);
  const kind = resolveKind(spec, specText, KINDS.filter(named), "in the registry");
  const item = named(kind)!;
  if (!item.ok) throw new RegistryRefusal(entryLabel(kind, spec.name), item.reason);
  const entry = item.entry;
  const prepared = await prepareInstall(kind, entry, io.registryUrl, io.fetchOptions);
  const label = entryLabel(kind, entry.name);
  if (!yes) {
    for (const line of renderPreview(prepared.body)) io.out(line);
    if (!io.confirm) {
      io.err(`${label} not installed: nobody to confirm; pass --yes to install it without a prompt`);
      return 1;
    }
    if (!(await io.confirm(`Install ${label} from ${entry.url}?`))) {
      io.out(`${label} not installed.`);
      return 1;
    }
  }
  const path = await commitInstall(io.home, prepared);
  io.out(`installed ${label} (sha256 ${prepared.origin.sha256.slice(0, 12)}) → ${path}`);
  return 0;
}

async function remove(io: RegistryIo, specText: string): Promise<number> {
  const spec = checkedSpec(specText);
  const present: RegistryKind[] = [];
  for (const kind of KINDS) if (await isInstalled(io.home, kind, spec.name)) present.push(kind);
  const kind = resolveKind(spec, specText, present, "installed");
  await removeInstalled(io.home, kind, spec.name);
  io.out(`removed ${entryLabel(kind, spec.name)}`);
  return 0;
}

function checkedSpec(specText: string): EntrySpec {
  const spec = parseEntrySpec(specText);
  if (!spec) throw new RegistryUsageError(`${JSON.stringify(specText)}: the prefix must be skill: or plugin:`);
  const badName = nameProblem(spec.name);
  if (badName) throw new RegistryRefusal(JSON.stringify(spec.name), badName);
  return spec;
}

function resolveKind(spec: EntrySpec, specText: string, kinds: RegistryKind[], where: string): RegistryKind {
  const kind = pickKind(spec, kinds);
  if (kind === "ambiguous") throw new RegistryUsageError(`${spec.name} is both a skill and a plugin; say skill:${spec.name} or plugin:${spec.name}`);
  if (kind === "none") throw new RegistryRefusal(JSON.stringify(specText), `no such entry ${where}`);
  return kind;
}

const itemsOf = (index: RegistryIndex, kind: RegistryKind): IndexItem[] => (kind === "skill" ? index.skills : index.plugins);
