/**
 * An npm registry on loopback serving packed tarballs, the way registry.npmjs.org serves published
 * ones: a packument per package name (each version's manifest, with its tarball's URL and integrity)
 * and the tarballs. So `npm install -g shiro-neko` runs here as a user runs it — resolving the
 * optional dependencies and choosing among them by `os` and `cpu` — with no network.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";

/** The package.json inside a tarball npm packed (under `package/`). */
export function manifestOf(tarball: string): Record<string, any> {
  const tar = Bun.spawnSync(["tar", "-xzOf", tarball, "package/package.json"], { stdout: "pipe", stderr: "pipe" });
  if (tar.exitCode !== 0) throw new Error(`no package/package.json in ${tarball}: ${tar.stderr.toString()}`);
  return JSON.parse(tar.stdout.toString());
}

export function serveNpmRegistry(tarballs: string[]) {
  const files = new Map(tarballs.map((t) => [basename(t), t]));
  const packuments = new Map<string, (url: string) => object>();
  for (const tarball of tarballs) {
    const manifest = manifestOf(tarball);
    const bytes = readFileSync(tarball);
    const dist = { shasum: createHash("sha1").update(bytes).digest("hex"), integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}` };
    packuments.set(manifest.name, (url) => ({
      name: manifest.name,
      "dist-tags": { latest: manifest.version },
      versions: { [manifest.version]: { ...manifest, _id: `${manifest.name}@${manifest.version}`, dist: { ...dist, tarball: `${url}/-/${basename(tarball)}` } } },
    }));
  }
  /** Every path asked for, in order. */
  const requested: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const { origin, pathname } = new URL(req.url);
      const path = decodeURIComponent(pathname);
      requested.push(path);
      const tarball = path.startsWith("/-/") ? files.get(path.slice(3)) : undefined;
      if (tarball) return new Response(Bun.file(tarball));
      const packument = packuments.get(path.slice(1));
      return packument ? Response.json(packument(origin)) : Response.json({ error: "Not found" }, { status: 404 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requested, stop: () => server.stop(true) };
}
