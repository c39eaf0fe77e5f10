import { pidsGroupsAvailable } from "./pids-cgroup.ts";

/**
 * What the Landlock backend cannot hold that bubblewrap does, on a kernel of this ABI: said by
 * `shiro doctor` and once per run, never silently assumed.
 */
export function landlockGaps(abi: number, gate: true | string = true): string[] {
  return [
    abi >= 4 ? "UDP (only TCP is cut offline)" : "the network (this kernel's Landlock predates TCP rules)",
    "Unix sockets by path outside the project (an agent socket, docker.sock)",
    ...(abi >= 6 ? [] : ["abstract Unix sockets and signals beyond the command"]),
    // Without a PID namespace, only a pids cgroup (root's) holds the limit and ends what left the group.
    // The limit is RLIMIT_NPROC over the user's count (a busy user's other processes count too), and only a
    // pids cgroup ends what left the group.
    ...(pidsGroupsAvailable() ? [] : ["processes that leave their group (setsid) outliving the command"]),
    ...(gate === true
      ? []
      : [`new or removed entries directly in a folder on the way to a secret or to git's config and hooks (such a folder is granted its listing and each thing in it; in a git project that is the project's top folder), as the gate cannot run here: ${gate}`]),
    "/tmp (a command gets a private TMPDIR instead)",
  ];
}
