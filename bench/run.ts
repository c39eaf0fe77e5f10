/**
 * `bun run bench [name…]`: runs every bench/*.bench.ts (or those whose file name contains a given
 * name) and prints its figures. A bench file exports `bench(): Promise<string[]>` returning lines
 * like "serialise+compact 2000 msgs: median 4.1 ms".
 */
const only = process.argv.slice(2);
const files = [...new Bun.Glob("*.bench.ts").scanSync({ cwd: import.meta.dir })]
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();
if (files.length === 0) {
  console.error(`bench: no bench/*.bench.ts matches ${only.join(", ")}`);
  process.exit(2);
}
for (const file of files) {
  const mod = (await import(`./${file}`)) as { bench: () => Promise<string[]> };
  console.log(`# ${file}`);
  for (const line of await mod.bench()) console.log(`  ${line}`);
}
