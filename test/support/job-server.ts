/**
 * A background job to find again: a `bun` HTTP server on 127.0.0.1 whose command line carries a
 * unique tag, so a test sees through /proc/<pid>/cmdline whether any process of it is left.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SERVER_SCRIPT = `const [tag, port] = process.argv.slice(2);
const server = Bun.serve({ hostname: "127.0.0.1", port: Number(port), fetch(req) {
  console.log("served " + new URL(req.url).pathname);
  return new Response("hello from " + tag);
} });
console.log("listening " + server.port);
`;

/** Writes the server into `dir` and returns a fresh tag and a free port for it. */
export function jobServer(dir: string): { tag: string; port: number; command: string } {
  writeFileSync(join(dir, "server.ts"), SERVER_SCRIPT);
  const tag = `shiro-job-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const port = freePort();
  return { tag, port, command: `bun server.ts ${tag} ${port}` };
}

/** A port nothing listens on now (bound and let go). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = probe;
  probe.stop(true);
  return port;
}

/** The pids whose command line holds `tag` (this process's own excluded). */
export function processesTagged(tag: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(tag);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Waits (polling, up to `ms`) until no process carries `tag`; returns those still left. */
export async function goneTagged(tag: string, ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (processesTagged(tag).length && Date.now() < deadline) await Bun.sleep(50);
  return processesTagged(tag);
}

/** Whether a connection from here (outside any sandbox) to 127.0.0.1:`port` is answered, via curl. */
export function answersFromOutside(port: number): boolean {
  return Bun.spawnSync(["/usr/bin/curl", "-s", "-m", "2", `http://127.0.0.1:${port}/outside`], { stdout: "pipe", stderr: "ignore" }).exitCode === 0;
}
