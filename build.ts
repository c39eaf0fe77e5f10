/**
 * Compiles src/main.ts into one self-contained executable.
 *   bun build.ts                      → dist/shiro for this machine
 *   bun build.ts --target bun-linux-arm64
 *   bun build.ts --all                → every release target + dist/SHA256SUMS
 */
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import pkg from "./package.json" with { type: "json" };

const TARGETS = ["bun-linux-x64", "bun-linux-arm64", "bun-darwin-x64", "bun-darwin-arm64", "bun-windows-x64"] as const;
type Target = (typeof TARGETS)[number];

const { values } = parseArgs({ options: { target: { type: "string" }, all: { type: "boolean" } } });
if (values.target && !TARGETS.includes(values.target as Target)) {
  console.error(`build: unknown --target ${values.target}; use one of ${TARGETS.join(", ")}`);
  process.exit(2);
}

async function compile(target: Target | undefined): Promise<string> {
  const outfile = target ? `dist/shiro-${target.slice(4)}${target.includes("windows") ? ".exe" : ""}` : "dist/shiro";
  const result = await Bun.build({
    entrypoints: ["src/main.ts"],
    minify: true,
    // Start-up: precompiled bytecode skips parsing ~700 KB of JS on every launch, and split chunks
    // mean a command loads only the code it imports (bytecode for ESM needs compile; splitting needs ESM).
    bytecode: true,
    format: "esm",
    splitting: true,
    define: { SHIRO_VERSION: JSON.stringify(pkg.version), SHIRO_BUILD: JSON.stringify(await sourceHash()) },
    // The binary must behave the same in any folder: never pick up the user's project config.
    compile: {
      outfile,
      ...(target ? { target } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  return outfile;
}

/** What the sources and dependencies hash to: caches one binary writes (a session's wire measures) are another's only when it is built from the same. */
async function sourceHash(): Promise<string> {
  const hash = createHash("sha256");
  const files = [...new Bun.Glob("src/**/*.ts").scanSync("."), "package.json", "bun.lock"].sort();
  for (const file of files) hash.update(file).update(await Bun.file(file).bytes());
  return hash.update(Bun.version).digest("hex").slice(0, 16);
}

if (values.all) {
  const files = [];
  for (const target of TARGETS) files.push(await compile(target));
  const sums = await Promise.all(
    files.map(async (f) => `${createHash("sha256").update(await Bun.file(f).bytes()).digest("hex")}  ${f.slice("dist/".length)}`),
  );
  await Bun.write("dist/SHA256SUMS", sums.join("\n") + "\n");
  console.log(`built ${files.length} targets; dist/SHA256SUMS written`);
} else {
  console.log(`built ${await compile(values.target as Target | undefined)}`);
}
