/**
 * A separate process for the store concurrency test: appends `rounds` turns to a session of its own,
 * and to the shared one (the same id as the other process opens: one of them holds it, the other
 * continues a copy), as fast as it can. Prints its own id, then the id it wrote the shared turns to.
 * Usage: bun test/support/save-loop.ts <dir> <shared-id> <rounds> <name>
 */
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createSessionStore } from "../../src/store/session-store.ts";
import { appendMessages, turn } from "./session-fixtures.ts";

const [dir, sharedId, rounds, name] = process.argv.slice(2) as [string, string, string, string];
const store = createSessionStore(dir);
const own = await store.create({ cwd: `/proj/${name}`, model: "gpt-5" });
const opened = await store.open(sharedId, () => {});
if (!opened.ok) throw new Error(opened.error.message);
const shared = opened.session;
// Both processes have opened the shared session before either writes (or closes) it: however late one
// starts on a loaded machine, one holds it and the other continues a copy.
await Bun.write(join(dirname(dir), `opened-${name}`), "");
while ((await readdir(dirname(dir))).filter((f) => f.startsWith("opened-")).length < 2) await Bun.sleep(2);
for (let i = 0; i < Number(rounds); i++) {
  appendMessages(own, turn(i));
  appendMessages(shared, [{ role: "user", text: `${name} ${i}` }, ...turn(i).slice(1)]);
  // Let the other process and the reader in between turns, as real turns would.
  if (i % 10 === 0) await Bun.sleep(1);
}
await store.remember(own.state);
console.log(own.id);
console.log(shared.id);
own.close();
shared.close();
