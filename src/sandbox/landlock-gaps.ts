import { pidsGroupsAvailable } from "./pids-cgroup.ts";

/**
 * What the Landlock backend cannot hold that bubblewrap does, on a kernel of this ABI and with the
 * gate running or not (`gate`: true, or why it cannot): said by `shiro doctor` and once per run,
 * never silently assumed. Each has a test that shows it (test/e2e/sandbox/landlock-network.test.ts and the rest).
 */
export function landlockGaps(abi: number, gate: true | string = true): string[] {
  const without = gate === true ? "" : `, as the gate cannot run here (${gate})`;
  return [
    ...(gate === true
      ? []
      : [
          `${abi >= 4 ? "UDP (only TCP is cut offline)" : "the network (this kernel's Landlock predates TCP rules)"}${without}`,
          `Unix sockets by path outside the project (an agent socket, docker.sock)${without}`,
          `new or removed entries directly in a folder on the way to a secret or to git's config and hooks (such a folder is granted its listing and each thing in it; in a git project that is the project's top folder)${without}`,
          `/dev/shm, refused rather than private${without}`,
        ]),
    ...(abi >= 6 ? [] : [gate === true ? "signals to the user's other processes (abstract Unix sockets are refused offline)" : "abstract Unix sockets and signals beyond the command"]),
    // Without a PID namespace, only a pids cgroup (root's) holds the limit and ends what left the group.
    ...(pidsGroupsAvailable() ? [] : ["processes that leave their group (setsid) outliving the command"]),
    "/tmp (a command gets a private TMPDIR instead)",
  ];
}
