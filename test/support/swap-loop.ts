/**
 * Run as its own process: `bun swap-loop.ts <dir> <link-target>`. Swaps `dir` between the real folder
 * and a symlink to `link-target` until killed, holding each state for a random 0–300 µs so that a
 * write's check and its open land on different states as often as a real attacker would arrange.
 * Prints "ready" once looping; every step tolerates a failed rename (a write racing it). Gives up
 * after 30 s, so a test runner that died without killing it leaves no loop spinning.
 */
import { renameSync, symlinkSync } from "node:fs";

const [dir, target] = process.argv.slice(2) as [string, string];
const real = `${dir}.real`;
const link = `${dir}.link`;
symlinkSync(target, link);

const attempt = (from: string, to: string) => {
  try {
    renameSync(from, to);
  } catch {}
};
const hold = () => {
  const until = performance.now() + Math.random() * 0.3;
  while (performance.now() < until);
};

const deadline = performance.now() + 30_000;
console.log("ready");
while (performance.now() < deadline) {
  attempt(dir, real);
  attempt(link, dir);
  hold();
  attempt(dir, link);
  attempt(real, dir);
  hold();
}
