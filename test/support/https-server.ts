import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type TestCa = { cert: string; key: string; certPath: string; dir: string };

/** A throwaway self-signed certificate for 127.0.0.1, made with the system openssl. */
export function makeTestCertificate(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), "shiro-tls-"));
  const certPath = join(dir, "cert.pem");
  const keyPath = join(dir, "key.pem");
  const made = Bun.spawnSync([
    "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", keyPath, "-out", certPath, "-days", "1", "-subj", "/CN=127.0.0.1",
    "-addext", "subjectAltName=IP:127.0.0.1",
  ]);
  if (made.exitCode !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  return { cert: readFileSync(certPath, "utf8"), key: readFileSync(keyPath, "utf8"), certPath, dir };
}

export type Route = (request: Request, server: TestHttps) => Response | Promise<Response>;

export type TestHttps = {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  routes: Map<string, Route>;
  /** Every path requested, in order, so tests can prove what was (not) fetched. */
  requested: string[];
  stop(): void;
};

/** A real HTTPS server on a free loopback port; tests put handlers into `routes` by path. */
export function startHttpsServer(ca: TestCa): TestHttps {
  const routes = new Map<string, Route>();
  const requested: string[] = [];
  const handle: TestHttps = { origin: "", routes, requested, stop: () => server.stop(true) };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: ca.cert, key: ca.key },
    fetch(request) {
      const path = new URL(request.url).pathname;
      requested.push(path);
      const route = routes.get(path);
      return route ? route(request, handle) : new Response("not found", { status: 404 });
    },
  });
  handle.origin = `https://127.0.0.1:${server.port}`;
  return handle;
}

export const removeCertificate = (ca: TestCa): void => rmSync(ca.dir, { recursive: true, force: true });
