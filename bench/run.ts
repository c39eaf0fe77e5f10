/**
 * `bun run bench`: runs every bench/*.bench.ts and prints its figures. A bench file exports
 * `bench(): Promise<string[]>` returning lines like "serialise+compact 2000 msgs: median 4.1 ms".
 */
const files = [...new Bun.Glob("*.bench.ts").scanSync({ cwd: import.meta.dir })].sort();
for (const file of files) {
  const mod = (await import(`./${file}`)) as { bench: () => Promise<string[]> };
  console.log(`# ${file}`);
  for (const line of await mod.bench()) console.log(`  ${line}`);
}
