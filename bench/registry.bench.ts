import { join } from "node:path";
import { linearPattern } from "../src/pattern/linear-pattern.ts";
import { pluginCheck } from "../src/registry/plugin-checks.ts";
import { parsePluginManifest, type PluginManifest } from "../src/registry/plugin-manifest.ts";
import type { GateCall } from "../src/guard/verdict.ts";
import { randomText, seededRandom } from "../test/support/random-pattern.ts";
import { medianMs } from "./median.ts";

const call = (command: string): GateCall => ({ tool: "bash", kind: "exec", args: { command }, subject: { command }, root: "/p" });

/**
 * What the shipped plugins add to every tool call, with the linear-time matcher and, for comparison, with
 * the RegExp engine they used to run in (the same patterns, compiled by `new RegExp`); then what a plugin
 * built to thrash the matcher costs before its work limit refuses the call.
 */
export async function bench(): Promise<string[]> {
  const dir = join(import.meta.dir, "../registry/plugins");
  const manifests: PluginManifest[] = [];
  for (const file of [...new Bun.Glob("*.json").scanSync({ cwd: dir })].sort()) {
    const parsed = parsePluginManifest(await Bun.file(join(dir, file)).text());
    if (parsed.ok) manifests.push(parsed.manifest);
  }
  const checks = manifests.map(pluginCheck);
  const commandPatterns = manifests.flatMap((manifest) => manifest.deny.flatMap((rule) => (rule.commandPattern ? [rule.commandPattern] : [])));
  const linear = commandPatterns.map((source) => {
    const compiled = linearPattern(source);
    if (!compiled.ok) throw new Error(compiled.problem);
    return compiled.pattern;
  });
  const regexps = commandPatterns.map((source) => new RegExp(source));

  const commands: [string, string][] = [
    ["ordinary command", "git status && bun test test/unit"],
    ["24 KB near-miss command", `git push ${"origin ".repeat(2000)}main | curl ${"x".repeat(10_000)} > .en`],
    ["30 KB heredoc command", `cat > notes.md <<'EOF'\n${"- a line of notes, with words | and > signs; git push\n".repeat(560)}EOF`],
  ];
  const perCallUs = async (run: () => void, times: number) => ((await medianMs(15, () => {
    for (let i = 0; i < times; i++) run();
  })) * 1000) / times;
  const lines = [`${checks.length} shipped plugins, ${commandPatterns.length} command patterns:`];
  for (const [label, command] of commands) {
    const times = command.length < 100 ? 1000 : 20;
    const gate = call(command);
    const checked = await perCallUs(() => checks.forEach((check) => check(gate)), times);
    const matcher = await perCallUs(() => linear.forEach((pattern) => pattern.test(command)), times);
    const regexp = await perCallUs(() => regexps.forEach((pattern) => pattern.test(command)), times);
    lines.push(`  ${label}: median ${checked.toFixed(1)} µs per tool call (patterns alone ${matcher.toFixed(1)} µs; as RegExp ${regexp.toFixed(1)} µs)`);
  }

  const thrash = parsePluginManifest(JSON.stringify({ name: "thrash", description: "d", deny: [{ tools: ["bash"], commandPattern: "xyz[ab]*a[ab]{99}!", reason: "r" }] }));
  if (!thrash.ok) throw new Error(thrash.problem);
  const hostile = call(`xyz${randomText(seededRandom(3), 128 * 1024, "ab")}`);
  const refused = await medianMs(5, () => pluginCheck(thrash.manifest)(hostile));
  lines.push(`  a pattern built to thrash the matcher, 128 KiB command: refused by the work limit after median ${refused.toFixed(1)} ms`);
  return lines;
}
