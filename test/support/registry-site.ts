import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "./binary.ts";
import type { TestHttps } from "./https-server.ts";
import { pluginText, sha256, skillText } from "./registry-fixture.ts";

/** Where the shipped index points its entries; rewritten to the test server's origin. */
const SHIPPED_BASE = "https://raw.githubusercontent.com/shiro-neko/shiro-neko/main/";

export type Entry = { name: string; description: string; url: string; sha256?: string; author?: string };
export type Index = { skills: Entry[]; plugins: Entry[] };

/** The repo's own file, byte for byte (what an install must write). */
export const shippedFile = (path: string): string => readFileSync(join(REPO, path), "utf8");

/**
 * Serves the repo's registry-index.json (entry URLs moved to `https.origin`) and every file under
 * registry/, so the shipped entries install exactly as they would from GitHub, sha256 pins included.
 * Returns the index URL.
 */
export function serveShippedRegistry(https: TestHttps, path = "/registry-index.json"): string {
  const index = shippedFile("registry-index.json").replaceAll(SHIPPED_BASE, `${https.origin}/`);
  https.routes.set(path, () => new Response(index, { headers: { "content-type": "application/json" } }));
  for (const file of new Bun.Glob("registry/**/*").scanSync({ cwd: REPO })) {
    https.routes.set(`/${file}`, () => new Response(shippedFile(file)));
  }
  return `${https.origin}${path}`;
}

/**
 * Serves `bodies` (path → text) at /<path> and an index listing them, pinned by their sha256
 * unless the entry already says otherwise. Returns the index URL.
 */
export function serveIndex(https: TestHttps, path: string, index: Index, bodies: Record<string, string> = {}): string {
  for (const [file, text] of Object.entries(bodies)) https.routes.set(`/${file}`, () => new Response(text));
  const pinned = (entry: Entry): Entry => {
    const file = entry.url.startsWith(https.origin) ? entry.url.slice(https.origin.length + 1) : "";
    return entry.sha256 === undefined && bodies[file] !== undefined ? { ...entry, sha256: sha256(bodies[file]) } : entry;
  };
  const served = { skills: index.skills.map(pinned), plugins: index.plugins.map(pinned) };
  https.routes.set(path, () => Response.json(served));
  return `${https.origin}${path}`;
}

/** A fresh temp $SHIRO_HOME whose config.json points `registryUrl` at a test registry. */
export function homeWithRegistry(registryUrl: string): string {
  const home = mkdtempSync(join(tmpdir(), "shiro-reg-home-"));
  pointAt(home, registryUrl);
  return home;
}

/** Switches an existing home to another registry, as a person editing config.json would. */
export const pointAt = (home: string, registryUrl: string): void => writeFileSync(join(home, "config.json"), JSON.stringify({ registryUrl }));

/** A team's own registry: a skill whose body carries a marker, and a plugin the guard has no rule like. */
export const TEAM = {
  skillName: "release-notes",
  skillDescription: "Draft release notes from the merged changes since the last tag.",
  skillBody: "# Release notes\n\nGroup merged changes by user impact. Marker: SKILL-BODY-7f3a.",
  bodyMarker: "SKILL-BODY-7f3a",
  pluginName: "no-npm-publish",
  pluginPattern: "\\bnpm\\s+publish\\b",
  pluginReason: "releases are published by CI from a tag, never from a session",
} as const;

/** Serves TEAM's index at /team-index.json and returns its URL. */
export function serveTeamRegistry(https: TestHttps): string {
  const at = (file: string) => `${https.origin}/team/${file}`;
  return serveIndex(
    https,
    "/team-index.json",
    {
      skills: [{ name: TEAM.skillName, description: TEAM.skillDescription, url: at(`${TEAM.skillName}.md`) }],
      plugins: [{ name: TEAM.pluginName, description: "Refuses npm publish.", url: at(`${TEAM.pluginName}.json`) }],
    },
    {
      [`team/${TEAM.skillName}.md`]: skillText(TEAM.skillName, TEAM.skillDescription, TEAM.skillBody),
      [`team/${TEAM.pluginName}.json`]: pluginText(TEAM.pluginName, [{ tools: ["bash"], commandPattern: TEAM.pluginPattern, reason: TEAM.pluginReason }]),
    },
  );
}
