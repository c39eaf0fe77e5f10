import { PATTERN_LIMITS } from "../pattern/pattern-limits.ts";

/** The registry's hard limits; each is named in the refusal it causes. */
export const LIMITS = {
  indexBytes: 256 * 1024,
  bodyBytes: 64 * 1024,
  entriesPerKind: 500,
  nameLength: 40,
  descriptionLength: 300,
  patternLength: 200,
  ...PATTERN_LIMITS,
  /**
   * Matcher steps one plugin's check may spend on a tool call: a base plus so much per character examined.
   * Ordinary patterns take about one step per character; a pattern built to thrash the matcher takes up to
   * its size per character and is stopped here, after some 10–30 ms on a busy 2-core machine, instead of seconds.
   */
  checkWork: { base: 1_000_000, perChar: 4 },
  rulesPerPlugin: 50,
  redirects: 5,
  fetchTimeoutMs: 10_000,
} as const;

/** Lowercase letters, digits and dashes, so a name is always one plain file name and can never leave its folder. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

export const DEFAULT_REGISTRY_URL = "https://raw.githubusercontent.com/shiro-neko/shiro-neko/main/registry-index.json";
