/**
 * shiro's npm packages, laid out from the binaries `bun build.ts --all` left in dist/ and packed:
 *   bun npm/pack.ts [--dist dist]   → <dist>/npm/<package>/ and <dist>/npm/*.tgz
 * One package per platform (@shiro-neko/linux-x64 …) holds that platform's binary, with `os` and `cpu`
 * so npm installs only the one matching the machine; the main package, shiro-neko, has the `shiro`
 * command (npm/shiro.cjs, plain Node.js) and names them all as optional dependencies — the way esbuild
 * and codex ship theirs. The release workflow publishes the tarballs, shiro-neko.tgz last (it names
 * the others, which must be there first). Every version is package.json's.
 */
import { parseArgs } from "node:util";
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };

/** Node's `${process.platform}-${process.arch}` → the file build.ts --all writes for it (npm/shiro.cjs lists the same). */
export const NPM_PLATFORMS = {
  "linux-x64": "shiro-linux-x64",
  "linux-arm64": "shiro-linux-arm64",
  "darwin-x64": "shiro-darwin-x64",
  "darwin-arm64": "shiro-darwin-arm64",
  "win32-x64": "shiro-windows-x64.exe",
} as const;
export type NpmPlatform = keyof typeof NPM_PLATFORMS;

const SCOPE = "@shiro-neko";
const common = {
  version: pkg.version,
  description: pkg.description,
  repository: { type: "git", url: "git+https://github.com/shiro-neko/shiro-neko.git" },
};

/** The folder of one package: its package.json, a README saying what it is, and its files. */
function layOut(dir: string, manifest: object, readme: string, files: Record<string, string>) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
  writeFileSync(join(dir, "README.md"), readme);
  for (const [to, from] of Object.entries(files)) {
    copyFileSync(from, join(dir, to));
    chmodSync(join(dir, to), 0o755); // npm keeps the executable bit it packs
  }
}

/** `npm pack`s a folder into <out>/<name>.tgz. */
async function pack(dir: string, out: string, name: string): Promise<string> {
  const proc = Bun.spawn(["npm", "pack", "--json", "--pack-destination", out], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`npm pack in ${dir} failed (exit ${code}):\n${stderr}`);
  const tarball = join(out, `${name}.tgz`);
  renameSync(join(out, JSON.parse(stdout)[0].filename), tarball);
  return tarball;
}

export async function packNpm(dist: string): Promise<string[]> {
  const missing = Object.values(NPM_PLATFORMS).filter((file) => !existsSync(join(dist, file)));
  if (missing.length) throw new Error(`${dist} has no ${missing.join(", ")}: build every target first (bun build.ts --all)`);
  const out = resolve(dist, "npm");
  mkdirSync(out, { recursive: true });
  const tarballs = [];
  for (const [platform, file] of Object.entries(NPM_PLATFORMS)) {
    const [os, cpu] = platform.split("-");
    const name = `${SCOPE}/${platform}`;
    // (preferUnplugged: Yarn PnP keeps the binary on disk, where it can run.)
    const manifest = { name, ...common, os: [os], cpu: [cpu], preferUnplugged: true };
    const readme = `# ${name}\n\nThe \`shiro\` binary for ${platform}. Install [shiro-neko](https://www.npmjs.com/package/shiro-neko) instead: it picks this package on this platform.\n`;
    layOut(join(out, platform), manifest, readme, { [`bin/shiro${os === "win32" ? ".exe" : ""}`]: join(dist, file) });
    tarballs.push(await pack(join(out, platform), out, `shiro-neko-${platform}`));
  }
  const manifest = {
    name: "shiro-neko",
    ...common,
    type: "commonjs",
    bin: { shiro: "bin/shiro.js" },
    optionalDependencies: Object.fromEntries(Object.keys(NPM_PLATFORMS).map((p) => [`${SCOPE}/${p}`, pkg.version])),
  };
  const readme = `# shiro-neko\n\n${pkg.description}\n\n\`\`\`sh\nnpm i -g shiro-neko\nshiro --version\n\`\`\`\n\nnpm installs the binary for this platform from ${SCOPE}/<os>-<cpu>; \`shiro\` runs it. Documentation: https://github.com/shiro-neko/shiro-neko\n`;
  layOut(join(out, "shiro-neko"), manifest, readme, { "bin/shiro.js": join(import.meta.dir, "shiro.cjs") });
  tarballs.push(await pack(join(out, "shiro-neko"), out, "shiro-neko"));
  return tarballs;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { dist: { type: "string", default: "dist" } } });
  try {
    for (const tarball of await packNpm(values.dist!)) console.log(tarball);
  } catch (error) {
    console.error(`npm/pack.ts: ${(error as Error).message}`);
    process.exit(1);
  }
}
