import { join } from "node:path";
import { pluginCheck } from "../src/registry/plugin-checks.ts";
import { parsePluginManifest } from "../src/registry/plugin-manifest.ts";
import type { Check, GateCall } from "../src/guard/verdict.ts";
import { medianMs } from "./median.ts";

/** What the shipped plugins add to every tool call, on an ordinary and on a long near-miss command. */
export async function bench(): Promise<string[]> {
  const dir = join(import.meta.dir, "../registry/plugins");
  const checks: Check[] = [];
  for (const file of [...new Bun.Glob("*.json").scanSync({ cwd: dir })].sort()) {
    const parsed = parsePluginManifest(await Bun.file(join(dir, file)).text());
    if (parsed.ok) checks.push(pluginCheck(parsed.manifest));
  }
  const call = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: { command }, subject: { command }, root: "/p" });
  const ordinary = call("git status && bun test test/unit");
  const nearMiss = call(`git push ${"origin ".repeat(2000)}main | curl ${"x".repeat(10_000)} > .en`);
  const perCall = async (gate: GateCall) => (await medianMs(20, () => {
    for (let i = 0; i < 1000; i++) for (const check of checks) check(gate);
  })) / 1000;
  return [
    `${checks.length} shipped plugins, ordinary command: median ${((await perCall(ordinary)) * 1000).toFixed(2)} µs per tool call`,
    `${checks.length} shipped plugins, 24 KB near-miss command: median ${((await perCall(nearMiss)) * 1000).toFixed(1)} µs per tool call`,
  ];
}
