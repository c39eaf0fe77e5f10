/**
 * The two sandboxes a CI runner gives commands: bubblewrap where it can make its namespaces, and
 * Landlock where it cannot (GitHub's Ubuntu 24.04 runner, simulated without touching the host by
 * running the binary under NO_USERNS). A test that must hold on both loops over these.
 */
import { NO_USERNS } from "./no-userns.ts";
import { toolHere } from "./tool-here.ts";

export type RunnerBackend = { name: string; wrap: readonly string[]; runs: boolean };

export const RUNNER_BACKENDS: readonly RunnerBackend[] = [
  { name: "bubblewrap", wrap: [], runs: toolHere("bwrap", Bun.which("bwrap") !== null) },
  { name: "Landlock on a simulated Ubuntu 24.04 runner", wrap: NO_USERNS, runs: true },
];
