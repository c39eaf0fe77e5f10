/** The registry's hard limits; each is named in the refusal it causes. */
export const LIMITS = {
  indexBytes: 256 * 1024,
  bodyBytes: 64 * 1024,
  entriesPerKind: 500,
  nameLength: 40,
  descriptionLength: 300,
  patternLength: 200,
  rulesPerPlugin: 50,
  redirects: 5,
  fetchTimeoutMs: 10_000,
} as const;

/** Lowercase letters, digits and dashes, so a name is always one plain file name and can never leave its folder. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

export const DEFAULT_REGISTRY_URL = "https://raw.githubusercontent.com/shiro-neko/shiro-neko/main/registry-index.json";
