import { afterAll, beforeAll } from "bun:test";
import { rmSync } from "node:fs";
import { tempDir } from "./run-shiro.ts";
import { startStrictServer, type StrictServer, type StrictServerOptions } from "./strict-server.ts";

/**
 * A test file's strict server, started before its tests and stopped after them, and the temp folders
 * its tests make (`dir`), removed with it.
 */
export function serverSuite(options: StrictServerOptions) {
  let server: StrictServer | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    server = await startStrictServer(options);
  });
  afterAll(() => {
    server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get server(): StrictServer {
      if (!server) throw new Error("the strict server is started in beforeAll");
      return server;
    },
    /** A temp folder removed once the file's tests are done. */
    dir(prefix: string): string {
      const dir = tempDir(prefix);
      dirs.push(dir);
      return dir;
    },
    /** Another's folder (a REPL's home) removed with the rest. */
    keep(dir: string): void {
      dirs.push(dir);
    },
  };
}
