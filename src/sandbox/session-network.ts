import { closeSync, fstatSync, openSync, statSync } from "node:fs";
import { changedSince, findTrusted, type TrustedProgram } from "../process/trusted-program.ts";
import { ToolError } from "../tools/tool.ts";

/** Where a command that joins finds the namespaces' files: fds 6 and 7 (spawn-prepared.ts hands `fds` from 6 on). */
const NET_FD = 6;
const USER_FD = 7;
/** The fds a joining command must close before the command itself runs (bwrap-argv.ts). */
export const JOIN_FDS = [NET_FD, USER_FD] as const;

/** How an offline command joins the session's network: the argv before bwrap's, and the fds it hands on. */
export type Joined = { prefix: string[]; fds: number[] };

/**
 * One network namespace for the session's offline commands under bubblewrap, made when the first
 * background job starts (until then each command gets its own, as bwrap's `--unshare-net` makes it):
 * a server a job runs on 127.0.0.1 is then reachable from the session's later commands, and from
 * nothing outside it, for the namespace has no interface but loopback. bwrap makes it (and brings
 * loopback up) for a moment; shiro keeps its namespaces' files open, which keeps them alive, and
 * every later offline command enters them with util-linux's `nsenter` before bwrap starts. Without
 * `--dev` bwrap makes a single user namespace, which owns the network one: an unprivileged user
 * enters that first (as its owner), root needs none. Nothing of it outlives shiro: the namespace
 * goes with the last process and fd that hold it.
 */
export function createSessionNetwork(bwrap: string) {
  let made: Promise<Made | string> | undefined;
  let ready: Made | undefined;
  return {
    /** Makes the namespace (once); resolves to why it cannot be made, or undefined once commands join it. */
    async start(): Promise<string | undefined> {
      made ??= make(bwrap).then((result) => {
        if (typeof result !== "string") ready = result;
        return result;
      });
      const result = await made;
      return typeof result === "string" ? result : undefined;
    },
    /** The way in, once made; refused (a ToolError) if `nsenter` was replaced since it was vetted. */
    joined(): Joined | undefined {
      if (!ready) return undefined;
      const swapped = changedSince(ready.nsenter);
      if (swapped) throw new ToolError(`Not run: the program that joins the session's network ${swapped}; restart shiro so it can check the program again.`);
      return { prefix: ready.prefix, fds: ready.fds };
    },
  };
}

type Made = Joined & { nsenter: TrustedProgram };

async function make(bwrap: string): Promise<Made | string> {
  const found = findTrusted("nsenter");
  if (!found.ok) return `nsenter (util-linux) is not usable: ${found.why}`;
  // No --unshare-pid: the shell's $$ is its pid on the host, where shiro opens its namespaces.
  const holder = Bun.spawn([bwrap, "--unshare-net", "--die-with-parent", "--ro-bind", "/", "/", "--", "/bin/sh", "-c", 'echo "$$"; read -r _'], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  try {
    const pid = Number((await firstLine(holder.stdout)).trim());
    if (!Number.isInteger(pid) || pid <= 0) return `bwrap could not make it: ${(await new Response(holder.stderr).text()).trim().split("\n")[0] || "no answer"}`;
    const net = openSync(`/proc/${pid}/ns/net`, "r");
    const user = openSync(`/proc/${pid}/ns/user`, "r");
    // Never the host's own network, whatever went wrong: that would hand every command the network.
    if (fstatSync(net).ino === statSync("/proc/self/ns/net").ino) {
      [net, user].forEach((fd) => closeSync(fd));
      return "bwrap did not make a network namespace of its own";
    }
    const ownUser = fstatSync(user).ino === statSync("/proc/self/ns/user").ino;
    const prefix = [found.program.path, `--net=/proc/self/fd/${NET_FD}`, ...(ownUser ? [] : [`--user=/proc/self/fd/${USER_FD}`, "--preserve-credentials"]), "--"];
    const fds = [net, user];
    const probe = Bun.spawn([...prefix, "/bin/true"], { stdio: ["ignore", "ignore", "pipe", "ignore", "ignore", "ignore", ...fds] });
    if ((await probe.exited) !== 0) {
      fds.forEach((fd) => closeSync(fd));
      return `nsenter cannot enter it: ${(await new Response(probe.stderr).text()).trim().split("\n")[0]}`;
    }
    return { prefix, fds, nsenter: found.program };
  } catch (err) {
    return `it could not be made: ${(err as Error).message}`;
  } finally {
    // Its namespaces live on through the fds: the process that made them can go.
    holder.stdin.end();
    holder.kill();
  }
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  return text.split("\n")[0]!;
}
