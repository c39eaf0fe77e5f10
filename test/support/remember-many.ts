/**
 * A separate shiro-like process for the concurrency test: waits until `startAt` (epoch ms) so both
 * processes hit the store together, then remembers `count` notes. Prints how many were refused.
 * Usage: bun remember-many.ts <home> <project> <prefix> <count> <startAt>
 */
import { createMemoryStore } from "../../src/store/memory-store.ts";

const [home, project, prefix, count, startAt] = process.argv.slice(2);
if (!home || !project || !prefix || !count || !startAt) throw new Error("usage: remember-many <home> <project> <prefix> <count> <startAt>");
const store = createMemoryStore(home, project);
await Bun.sleep(Math.max(0, Number(startAt) - Date.now()));
let refused = 0;
for (let i = 0; i < Number(count); i++) {
  const result = await store.add("fact", `${prefix} note number ${i}`);
  if (!result.ok) refused++;
}
console.log(`refused ${refused}`);
