import { conditionHere } from "./tool-here.ts";

/**
 * A machine like GitHub's Ubuntu 24.04 runner, Docker's default profile or a hardened user, simulated
 * without touching the host: in a user namespace of its own (root there, nobody outside), no further
 * user namespace may be made (max_user_namespaces 0, for that namespace alone) and every capability is
 * dropped — so bwrap cannot make its namespaces, while Landlock, which needs none, still works.
 */
export const NO_USERNS: readonly string[] = [
  "unshare",
  "--user",
  "--map-root-user",
  "sh",
  "-c",
  'echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all "$@"',
  "no-userns",
];

/** Whether the simulation holds here, for tests to skip on (fail in CI) where it does not: test/support/tool-here.ts. */
export const simulationHere = (): boolean => conditionHere("the simulated Ubuntu 24.04 runner (a user namespace of its own, no further one, Landlock)", simulationHolds());

/** Whether the simulation holds here: bwrap refused, Landlock present. What it says otherwise names the part that did not hold. */
export function simulationHolds(): string | undefined {
  const bwrap = Bun.spawnSync([...NO_USERNS, "bwrap", "--ro-bind", "/", "/", "true"], { stdout: "ignore", stderr: "pipe" });
  if (bwrap.exitCode === 0) return "bwrap still made its namespaces inside the simulation";
  if (!/namespace/i.test(bwrap.stderr.toString())) return `the simulation did not start: ${bwrap.stderr.toString().trim()}`;
  const landlock = Bun.spawnSync([...NO_USERNS, "python3", "-c", "import ctypes; print(ctypes.CDLL(None).syscall(444, None, 0, 1))"], { stdout: "pipe" });
  if (!(Number(landlock.stdout.toString()) > 0)) return "Landlock is not available inside the simulation";
  return undefined;
}
