import { test } from "bun:test";

/** The package each tool comes in: the sandbox, search and bytes-written tests need them (.ci/run installs them). */
const PACKAGE = { bwrap: "bubblewrap", rg: "ripgrep", strace: "strace" } as const;
export type NeededTool = keyof typeof PACKAGE;

// CI=true is how .ci/run runs in CI (GitHub Actions sets it too); "", "0" and "false" are no CI.
const inCI = !["", "0", "false"].includes(process.env.CI ?? "");
const noted = new Set<NeededTool>();

/**
 * `found` (a path, a flag) as given, for tests that skip without `tool`. Where a person runs them a
 * missing tool gets a note (once a run) naming the package; in CI the calling file gets a failing test
 * instead, so a sandbox or secrets test never passes there by not running.
 */
export function toolHere<T>(tool: NeededTool, found: T): T {
  if (found) return found;
  if (inCI) {
    test(`${tool} is installed (in CI every test that needs it runs)`, () => {
      throw new Error(`${tool} is not installed, and CI must run the tests that need it: install ${PACKAGE[tool]} (.ci/run does, as root)`);
    });
  } else if (!noted.has(tool)) {
    noted.add(tool);
    console.warn(`note: ${tool} is not installed, so the tests that need it are skipped (they fail in CI): install ${PACKAGE[tool]}`);
  }
  return found;
}

/**
 * The same for something the machine offers rather than a package (a kernel feature): true when
 * `missing` is undefined; else, once a run, a note saying what is missing (the tests skip), or in CI a
 * failing test in the calling file.
 */
export function conditionHere(what: string, missing: string | undefined): boolean {
  if (missing === undefined) return true;
  if (inCI) {
    test(`${what} holds (in CI every test that needs it runs)`, () => {
      throw new Error(`${what} does not hold here: ${missing}`);
    });
  } else if (!notedConditions.has(what)) {
    notedConditions.add(what);
    console.warn(`note: ${what} does not hold here (${missing}), so the tests that need it are skipped (they fail in CI)`);
  }
  return false;
}
const notedConditions = new Set<string>();
