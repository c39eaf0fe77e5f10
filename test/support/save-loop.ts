/**
 * A separate process for the store concurrency test: saves its own session and a shared one
 * (same id as the other process) `rounds` times, growing both, as fast as it can.
 * Usage: bun test/support/save-loop.ts <dir> <shared-id> <rounds> <name>
 */
import { createSessionStore } from "../../src/store/session-store.ts";
import { turn } from "./session-fixtures.ts";

const [dir, sharedId, rounds, name] = process.argv.slice(2) as [string, string, string, string];
const store = createSessionStore(dir);
const own = store.create({ cwd: `/proj/${name}`, model: "gpt-5" });
const shared = { ...store.create({ cwd: "/proj/shared", model: "gpt-5" }), id: sharedId };
for (let i = 0; i < Number(rounds); i++) {
  own.messages.push(...turn(i));
  shared.messages.push({ role: "user", text: `${name} ${i}` }, ...turn(i));
  await Promise.all([store.save(own), store.save(shared)]);
}
console.log(own.id);
